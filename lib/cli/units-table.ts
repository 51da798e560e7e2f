import fs from 'node:fs';
import path from 'node:path';
import { unit } from 'mathjs';
import { computeConversions } from '../structure/unit-conversions.ts';

// `npm run units:table`: writes lib/structure/unit-conversions.json from mathjs (after a change to unit-table.ts).
const file = path.join(import.meta.dirname, '..', 'structure', 'unit-conversions.json');
const table = computeConversions(unit);
// One conversion a line, as the formatter (Biome) writes it.
const lines = Object.entries(table).map(([k, [a, b]]) => `  ${JSON.stringify(k)}: [${a}, ${b}]`);
fs.writeFileSync(file, `{\n${lines.join(',\n')}\n}\n`);
console.log(`${Object.keys(table).length} conversions written to ${path.relative(process.cwd(), file)}`);
