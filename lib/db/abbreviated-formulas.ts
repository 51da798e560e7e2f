import type { PrismaClient } from './generated/client.ts';

/** A formula-like word written before a short form in brackets, and how often ("LiFePO4/C (LFP)"). */
export interface AbbreviatedFormula {
  long: string;
  short: string;
  uses: number;
}

// A formula-like word (an opening bracket allowed: "(La0.6Sr0.4)(Co0.2Fe0.8)O3") before "(SHORT)", the short form two
// to six letters with a capital first.
const PATTERN = String.raw`(\(?[A-Z][A-Za-z0-9.()\[\]/+·−–-]{1,40}) \(([A-Z][A-Za-z]{1,5})\)`;

/**
 * Every "formula (SHORT FORM)" the papers' paragraphs and the records' texts write, counted (the database's regular
 * expressions: a second over the shared corpus and its 46,000 records, instead of reading every text back).
 */
export async function abbreviatedFormulasOf(prisma: PrismaClient): Promise<AbbreviatedFormula[]> {
  return prisma.$queryRaw<AbbreviatedFormula[]>`
    SELECT m[1] AS long, m[2] AS short, count(*)::int AS uses FROM (
      SELECT regexp_matches(data->>'paragraph_string', ${PATTERN}, 'g') AS m FROM "Record" WHERE data ? 'paragraph_string'
      UNION ALL SELECT regexp_matches(text, ${PATTERN}, 'g') FROM "Paragraph"
    ) found GROUP BY 1, 2`;
}

/** A target formula of the records, as they write it, and how many recipes make it. */
export interface RecordTarget {
  formula: string;
  uses: number;
}

/**
 * The records' target formulas made by two recipes or more, counted (what a short form typed in a synthesis question
 * may be spelled from when no text defines it: lib/retrieval/material-abbreviations.ts). About a second at ×1.
 */
export async function recordTargetsOf(prisma: PrismaClient): Promise<RecordTarget[]> {
  return prisma.$queryRaw<RecordTarget[]>`
    SELECT data->'target'->>'material_formula' AS formula, count(*)::int AS uses FROM "Record"
    WHERE data->'target' ? 'material_formula' GROUP BY 1 HAVING count(*) >= 2`;
}
