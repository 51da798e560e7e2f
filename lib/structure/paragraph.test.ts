import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { offlineExtractor } from './paragraph.ts';

// Invented paragraphs.
describe('offlineExtractor.structureParagraph', () => {
  it('structures a synthesis paragraph: method, entities and conditions attached to their steps', () => {
    const s = offlineExtractor.structureParagraph(
      'In a typical synthesis, 2 mmol of Co(NO3)2·6H2O and 10 mmol of urea were dissolved in 30 mL of deionized water at pH 9 and transferred to a Teflon-lined autoclave, which was heated at 120 °C for 6 h. The product was then calcined at 400–500 °C for 2 h in air.',
    );
    expect(s.role).toBe('synthesis');
    expect(s.method).toBe('hydro-solvothermal');
    expect(s.entities.map((e) => `${e.role}:${e.text}`)).toEqual(['precursor:Co(NO3)2·6H2O', 'additive:urea', 'solvent:deionized water']);
    expect(s.conditions!.temperature.map((t) => [t.step, t.canonical])).toEqual([
      ['hydro/solvothermal', [393.15]],
      ['calcination', [673.15, 773.15]],
    ]);
    expect(s.conditions!.time.map((t) => t.canonical)).toEqual([[6], [2]]);
    expect(s.conditions!.atmosphere).toEqual(['air']);
    expect(s.conditions!.ph).toEqual([9]);
  });
  it('extracts performance claims with material, canonical value and conditions', () => {
    const s = offlineExtractor.structureParagraph(
      'The NiFe2O4 electrode exhibited a low overpotential of 290 mV at 10 mA cm−2 and a Tafel slope of 45 mV dec−1, superior to RuO2.',
    );
    expect(s.role).toBe('performance');
    const over = s.performance.find((p) => p.property === 'overpotential')!;
    expect(over).toMatchObject({ material: 'NiFe2O4', canonical: [0.29], canonicalUnit: 'V' });
    expect(over.conditions).toEqual([{ text: '10 mA cm−2', dimension: 'current-density', canonical: [10], unit: 'mA/cm^2' }]);
  });
  it('does not take fuels, ions, plural acronyms or glued reference numbers for the claim material; reads spaced formulas whole', () => {
    const material = (t: string) => offlineExtractor.structureParagraph(t).performance.map((p) => p.material);
    expect(material('The cell reached a peak power density of 560 mW cm−2 at 550 °C with wet H2 fuel.')).toEqual([null]);
    expect(material('SOFCs can achieve power density ≥ 1 W cm−2 at 500 °C3,4.')).toEqual([null]);
    expect(material('Substituting Ce4+ in BaZrO3 raised the conductivity to 0.01 S cm−1.')).toEqual(['BaZrO3']);
    expect(material('The MgB 2 wires showed a Tc of 39 K.')).toEqual(['MgB2']);
  });
  it('has a stable extractor id for incremental runs', () => {
    expect(offlineExtractor.id).toMatch(/^offline@\d+-[0-9a-f]{10}$/);
  });
});

describe('the offline extractor’s version stamp', () => {
  it('is the same in every process: the rules’ patterns, not a transpiler’s print of the functions', () => {
    // A stamp that differed by process made `npm run worker` refuse the coordinator's shards and a resumed import
    // stamp its paragraphs unlike an uninterrupted one. tsx (the CLI, the worker) must read what this process reads.
    const tsx = spawnSync(
      process.execPath,
      ['--import', 'tsx', '-e', "import('./lib/structure/paragraph.ts').then((m) => console.log(m.offlineExtractor.id))"],
      {
        cwd: path.join(import.meta.dirname, '..', '..'),
        encoding: 'utf8',
      },
    );
    expect(tsx.stdout.trim()).toBe(offlineExtractor.id);
  });
});
