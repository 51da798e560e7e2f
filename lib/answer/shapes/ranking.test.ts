import { beforeAll, describe, expect, it } from 'vitest';
import type { RetrievalIndex } from '../../retrieval/index.ts';
import { corpusOf, type FixturePaper, indexOf } from '../../../scripts/test-support/retrieval-fixtures.ts';
import { answerQuestion } from '../answer.ts';
import { statedValues } from '../stated-values.ts';

/**
 * Comparative and superlative questions answered from the values the evidence states (invented papers): ranked
 * under the asked temperature, where a sintering temperature is not an operating one, a "respectively" list is read
 * pair by pair, and a value belongs to the material its own sentence binds (not a device name, not a cut formula).
 */
const cell = (id: string, title: string, text: string): FixturePaper => ({
  id,
  doi: `10.9999/${id}`,
  title,
  paragraphs: [{ text, section: 'Results', role: 'performance' }],
});

const papers: FixturePaper[] = [
  cell(
    'rk-pbscf',
    'A layered perovskite cathode for intermediate-temperature fuel cells',
    'Applied as SOFC cathode, PrBa0.5Sr0.5Co2− xFexO5+ δ (PBSCF) gave a peak power density of 1.1 W cm−2 at 600 °C in humidified hydrogen.',
  ),
  cell(
    'rk-lsc',
    'Strontium-doped lanthanum cobaltite cathodes on ceria electrolytes',
    'The single cell with the La0.6Sr0.4CoO3 cathode delivered a peak power density of 450 mW cm−2 at 600 °C in humidified hydrogen.',
  ),
  cell(
    'rk-ssc',
    'Sintering of samarium strontium cobaltite cathodes',
    'The Sm0.5Sr0.5CoO3 cathode sintered at 600 °C gave a peak power density of 2.5 W cm−2 at 800 °C in humidified hydrogen.',
  ),
  cell(
    'rk-bscf',
    'Temperature dependence of a barium strontium cobalt ferrite cathode',
    'Cells with the Ba0.5Sr0.5Co0.8Fe0.2O3 cathode reached peak power densities of 0.9, 0.62 and 0.3 W cm−2 at 700, 650 and 600 °C, respectively.',
  ),
  cell(
    'rk-sf',
    'Photoluminescence imaging of stacking faults in silicon carbide epilayers',
    'The maximum photoemission intensity wavelengths are 420 nm and 460 nm for two types of SF, and 470 nm for the third SF.',
  ),
  cell(
    'rk-pbmco',
    'Iron-substituted layered perovskite anodes',
    'The maximum power densities were 0.83, 0.94 and 1.83 W cm−2 for PBMCo, PBMCo-3-Fe and PBMCo-12-Fe, respectively, at 800 °C in humidified H2.',
  ),
];

describe('comparisons and superlatives', () => {
  let index: RetrievalIndex;
  beforeAll(async () => {
    index = await indexOf(corpusOf(papers));
  });

  it('reads each value with its own material and the temperature it was measured at', async () => {
    const evidence = [...index.paragraphs.values()].map((p) => ({
      id: `paragraph:${p.id}`,
      kind: 'paragraph' as const,
      text: p.text,
      score: 1,
      coverage: null,
      matched: { materials: [], quantities: [], properties: [] },
      paperId: p.paperId,
      doi: null,
      section: null,
      provenance: [],
    }));
    const rows = statedValues(evidence, 'power-density', 'power-density');
    const read = rows.map(
      (r) => `${r.material} ${r.value} ${r.measuredAtK === null ? '-' : Math.round(r.measuredAtK - 273.15)} [${r.processing.map((p) => p.text).join(', ')}]`,
    );
    expect(read).toEqual(
      expect.arrayContaining([
        // The formula PDF extraction split is read whole, with the abbreviation the paper uses; the device is no owner.
        'PrBa0.5Sr0.5Co2−xFexO5+δ (PBSCF) 1.1 W cm−2 600 []',
        'La0.6Sr0.4CoO3 450 mW cm−2 600 []',
        // Sintered at 600 °C, measured at 800 °C.
        'Sm0.5Sr0.5CoO3 2.5 W cm−2 800 [sintered at 600 °C]',
        // "respectively": the i-th value at the i-th temperature.
        'Ba0.5Sr0.5Co0.8Fe0.2O3 0.9 W cm−2 700 []',
        'Ba0.5Sr0.5Co0.8Fe0.2O3 0.3 W cm−2 600 []',
        // "for A, B and C, respectively": the i-th value of the i-th material.
        'PBMCo 0.83 W cm−2 800 []',
        'PBMCo-12-Fe 1.83 W cm−2 800 []',
      ]),
    );
    const resistances = statedValues(
      [
        {
          ...evidence[0],
          text: 'The polarization resistances of LSCF were 0.027 Ω cm2, 0.11 Ω cm2, and 0.88 Ω cm2 at 800 °C, 700 °C and 600 °C, respectively.',
        },
      ],
      'area-resistance',
      'area-resistance',
    );
    expect(resistances.map((r) => `${r.value} ${Math.round((r.measuredAtK ?? 0) - 273.15)}`)).toEqual(['0.027 Ω cm2 800', '0.11 Ω cm2 700', '0.88 Ω cm2 600']);
    // As many temperatures right after a list of values pair with them in order without "respectively"; a range does not.
    const listed = (text: string) =>
      statedValues([{ ...evidence[0], text }], 'conductivity', 'conductivity').map(
        (r) =>
          `${r.value} ${r.measuredAtK === null ? '-' : Math.round(r.measuredAtK - 273.15)} ${r.measuredSpanK?.map((k) => Math.round(k - 273.15)).join('–')}`,
      );
    expect(listed('The GDC film had ionic conductivities of 0.01, 0.025, and 0.054 S cm–1 at 500, 600, and 700 °C.')).toEqual([
      '0.01 S cm–1 500 500–500',
      '0.025 S cm–1 600 600–600',
      '0.054 S cm–1 700 700–700',
    ]);
    expect(listed('The GDC film had ionic conductivities of 0.01 and 0.054 S cm–1 at 500–700 °C.')).toEqual(['0.01 and 0.054 S cm–1 - 500–700']);
    // A number right after a letter is part of a name, not a value ("CH4 and 2.02 W cm−2").
    expect(
      statedValues(
        [{ ...evidence[0], text: 'Power densities of 0.76 W cm−2 in CH4 and 2.02 W cm−2 in H2 at 800 °C were obtained.' }],
        'power-density',
        'power-density',
      ).map((r) => r.value),
    ).toEqual(['0.76 W cm−2', '2.02 W cm−2']);
  });

  it('names the leader under the asked temperature first, leaves out a sintering temperature, cites every value', async () => {
    const a = await answerQuestion(index, 'Which SOFC cathode gave the highest peak power density at 600 C?');
    expect(a.shape).toBe('ranking');
    expect(a.sentences[0].text).toMatch(
      /^PrBa0\.5Sr0\.5Co2−xFexO5\+δ \(PBSCF\) has the highest power density at 600 C of the 3 values the evidence states: 1\.1 W cm−2 at 600 °C/,
    );
    expect(a.sentences[1].text).toMatch(/^Next: La0\.6Sr0\.4CoO3, 450 mW cm−2 at 600 °C/);
    expect(a.sentences[2].text).toMatch(/^Next: Ba0\.5Sr0\.5Co0\.8Fe0\.2O3, 0\.3 W cm−2 at 600 °C/);
    // 2.5 W cm−2 is larger, but the cell ran at 800 °C: its 600 °C was the sintering temperature.
    expect(a.sentences.map((s) => s.text).join(' ')).toMatch(/Left out: 1 value where 600 C is a processing temperature \(sintered at 600 °C\)/);
    expect(a.table?.map((r) => r.value)).toEqual(['1.1 W cm−2', '450 mW cm−2', '0.3 W cm−2']);
    const ids = new Set(a.evidence.map((e) => e.id));
    for (const s of a.sentences.filter((x) => !x.flags.includes('frame'))) {
      expect(s.citations.length).toBeGreaterThan(0);
      for (const c of s.citations) expect(ids.has(c)).toBe(true);
    }
    expect(a.sentences[0].verdict).toBe('supported');
  });

  it('ranks from the lowest when asked for the lowest', async () => {
    const a = await answerQuestion(index, 'Which cathode shows the lowest peak power density at 600 °C?');
    expect(a.shape).toBe('ranking');
    expect(a.sentences[0].text).toMatch(/^Ba0\.5Sr0\.5Co0\.8Fe0\.2O3 has the lowest power density at 600 °C/);
  });

  it('does not take the name of the property for a superlative', async () => {
    const a = await answerQuestion(index, 'What maximum power density did the La0.6Sr0.4CoO3 cathode deliver?');
    expect(a.shape).not.toBe('ranking');
  });

  it('reads a stated value of the property as a lookup of who reports it, unless the question compares with it', async () => {
    // 420 nm written in ångström: the paper that gives it, not a ranking of wavelengths ("maximum" is in the name).
    const lookup = await answerQuestion(index, 'Find the study giving 4200 Å as the maximum photoemission intensity wavelength of types of SF.');
    expect(lookup.shape).not.toBe('ranking');
    expect(lookup.sentences.map((x) => x.text).join(' ')).toMatch(/Photoluminescence imaging of stacking faults/);
    const compared = await answerQuestion(index, 'Which cathode gave the highest peak power density above 0.5 W cm−2 at 600 °C?');
    expect(compared.shape).toBe('ranking');
  });
});
