import type { Evidence } from '../../lib/evidence/model.ts';
import type { RetrievalCorpus } from '../../lib/db/retrieval-corpus.ts';
import type { RetrievalTupleRow } from '../../lib/db/graph-views.ts';
import { fitLocalHashEmbedder, localTextEmbedder } from '../../lib/embedding/local-hash.ts';
import { buildRetrievalIndex, type RetrievalIndex } from '../../lib/retrieval/index.ts';

/**
 * A small invented corpus for retrieval tests (no third-party text): papers that differ only in the values and
 * conditions they report, so tests can tell whether unit conversion, formula normalisation, filters and
 * abstention work, plus one imported recipe for the records pipeline.
 */
export type FixturePaper = { id: string; doi: string | null; title: string; paragraphs: { text: string; section?: string; role?: string }[] };

const papers: FixturePaper[] = [
  {
    id: 'fx-lsm',
    doi: '10.9999/fx.lsm',
    title: 'Electrical transport in doped perovskite cathodes',
    paragraphs: [
      {
        text: 'Replacing La by Sr in LaMnO3 creates Mn4+ holes, so the electronic conductivity of the cathode rises with the Sr content up to x = 0.5. Pellets were sintered in air.',
        section: 'Discussion',
        role: 'performance',
      },
    ],
  },
  {
    id: 'fx-sofc-600',
    doi: '10.9999/fx.sofc.600',
    title: 'A La0.6Sr0.4CoO3 cathode tested at intermediate temperature',
    paragraphs: [
      { text: 'Cells were assembled on Ni-YSZ supports with a gadolinium-doped ceria barrier layer.', section: 'Experimental', role: 'system' },
      {
        text: 'The single cell with the La0.6Sr0.4CoO3 cathode delivered a peak power density of 450 mW cm−2 at 600 °C in humidified hydrogen.',
        section: 'Results',
        role: 'performance',
      },
    ],
  },
  {
    id: 'fx-sofc-800',
    doi: '10.9999/fx.sofc.800',
    title: 'High-temperature operation of La0.6Sr0.4CoO3 cathodes',
    paragraphs: [
      {
        text: 'The single cell with the La0.6Sr0.4CoO3 cathode delivered a peak power density of 450 mW cm−2 at 800 °C in humidified hydrogen.',
        section: 'Results',
        role: 'performance',
      },
      { text: 'Degradation remained below 1% per 100 h during operation.', section: 'Results', role: 'performance' },
    ],
  },
  {
    id: 'fx-synth-srco3',
    doi: '10.9999/fx.synth.srti',
    title: 'Solid-state synthesis of iron-doped strontium titanate',
    paragraphs: [
      {
        text: 'SrTi0.7Fe0.3O3 was prepared from SrCO3, TiO2 and Fe2O3 by solid-state reaction; the powders were calcined at 1100 °C for 10 h in air.',
        section: 'Synthesis',
        role: 'synthesis',
      },
    ],
  },
  {
    id: 'fx-hydrothermal',
    doi: '10.9999/fx.hydro.nico',
    title: 'Hydrothermal growth of NiCo2O4 nanowires on nickel foam',
    paragraphs: [
      {
        text: 'NiCo2O4 nanowires were grown on nickel foam from Ni(NO3)2·6H2O and Co(NO3)2·6H2O in deionized water at 120 °C for 6 h.',
        section: 'Synthesis',
        role: 'synthesis',
      },
      { text: 'The NiCo2O4 electrode needed an overpotential of 290 mV to reach 10 mA cm−2 in 1 M KOH.', section: 'Results', role: 'performance' },
    ],
  },
  {
    id: 'fx-supercond',
    doi: null,
    title: 'Pressure dependence of superconductivity in a layered nitride',
    paragraphs: [
      {
        text: 'The superconducting transition of the Li0.48(THF)yHfNCl crystals occurred at Tc = 25.5 K under ambient pressure. Under hydrostatic pressure Tc decreases linearly, at dTc/dp = −0.8 K/GPa up to 1.2 GPa.',
        section: 'Results',
        role: 'performance',
      },
    ],
  },
  {
    id: 'fx-polymer',
    doi: '10.9999/fx.polymer',
    title: 'Proton conductivity of sulfonated polyimide membranes',
    paragraphs: [
      {
        text: 'The sulfonated polyimide membrane reached a proton conductivity of 0.12 S cm−1 at 80 °C and 90% relative humidity.',
        section: 'Results',
        role: 'performance',
      },
    ],
  },
];

export const fixtureRecords = [
  {
    id: 'fx-record-1',
    kind: 'solid-state-recipe',
    source: 'fixture',
    doi: '10.9999/fx.recipe.only',
    paperId: null,
    title: 'BaCe0.8Y0.2O3',
    data: {
      doi: '10.9999/fx.recipe.only',
      targets_string: ['BaCe0.8Y0.2O3'],
      precursors: [{ material_string: 'BaCO3' }, { material_string: 'CeO2' }, { material_string: 'Y2O3' }],
      operations: [{ type: 'HeatingOperation', string: 'calcined', conditions: { heating_temperature: [{ values: [1300], units: '°C' }] } }],
    },
  },
];

export const tupleRow = (
  id: string,
  s: [string, string],
  relation: string,
  o: [string, string],
  paragraphId: string,
  extra: Partial<RetrievalTupleRow> = {},
): RetrievalTupleRow => ({
  id,
  subjectKey: s[0],
  subjectLabel: s[1],
  subjectCanonical: s[0],
  subjectCanonicalLabel: s[1],
  relation,
  objectKey: o[0],
  objectLabel: o[1],
  objectCanonical: o[0],
  objectCanonicalLabel: o[1],
  referenceRelation: null,
  referenceNode: null,
  value: null,
  valueMax: null,
  unit: null,
  causal: false,
  paperId: paragraphId.split(':')[0],
  paragraphId,
  recordId: null,
  sentence: null,
  ...extra,
});

/** Invented tuples over the fixture papers (as the graph stage would extract them). */
export const fixtureTuples: RetrievalTupleRow[] = [
  tupleRow('g1', ['f:CoLa0.6O3Sr0.4', 'La0.6Sr0.4CoO3'], 'has_property', ['p:power-density', 'power density'], 'fx-sofc-600:p2', {
    value: 450,
    valueMax: 450,
    unit: 'mW/cm^2',
    referenceRelation: 'measured_at',
    referenceNode: '600 °C',
  }),
  tupleRow('g2', ['f:CoLa0.6O3Sr0.4', 'La0.6Sr0.4CoO3'], 'has_property', ['p:power-density', 'power density'], 'fx-sofc-800:p1', {
    value: 450,
    valueMax: 450,
    unit: 'mW/cm^2',
    referenceRelation: 'measured_at',
    referenceNode: '800 °C',
  }),
  tupleRow('g3', ['f:Fe0.3O3SrTi0.7', 'SrTi0.7Fe0.3O3'], 'synthesized_from', ['f:CO3Sr', 'SrCO3'], 'fx-synth-srco3:p1'),
  tupleRow('g4', ['f:Fe0.3O3SrTi0.7', 'SrTi0.7Fe0.3O3'], 'synthesized_by', ['method:solid-phase', 'solid-phase'], 'fx-synth-srco3:p1'),
  tupleRow(
    'g5',
    ['n:sulfonatedpolyimidemembrane', 'sulfonated polyimide membrane'],
    'has_property',
    ['p:conductivity', 'proton conductivity'],
    'fx-polymer:p1',
    { value: 0.12, valueMax: 0.12, unit: 'S/cm', referenceRelation: 'measured_at', referenceNode: '80 °C' },
  ),
  tupleRow('g6', ['f:Co2NiO4', 'NiCo2O4'], 'grown_on', ['m:NF', 'nickel foam'], 'fx-hydrothermal:p1'),
  tupleRow('g7', ['m:NF', 'nickel foam'], 'part_of', ['n:electrode', 'electrode'], 'fx-hydrothermal:p2'),
  // Causal chain: sintering temperature → grain size → proton conductivity (tier 1), plus an analogue source.
  tupleRow('g8', ['n:sinteringtemperature', 'sintering temperature'], 'increases', ['p:size', 'grain size'], 'fx-synth-srco3:p1', {
    causal: true,
    sentence: 'A higher sintering temperature increased the grain size.',
  }),
  tupleRow('g9', ['p:size', 'grain size'], 'increases', ['p:conductivity', 'proton conductivity'], 'fx-polymer:p1', {
    causal: true,
    sentence: 'Larger grains raised the proton conductivity.',
  }),
  tupleRow('g10', ['n:calcinationtemperature', 'calcination temperature'], 'decreases', ['n:surfacearea', 'surface area'], 'fx-synth-srco3:p1', {
    causal: true,
    sentence: 'A higher calcination temperature decreased the surface area.',
  }),
];

export function fixtureCorpus(): RetrievalCorpus {
  return { ...corpusOf(papers, { records: fixtureRecords, tuples: fixtureTuples }), version: 'fixture-1' };
}

/** A corpus of invented papers (`FixturePaper`), for tests that need a library of their own. */
export function corpusOf(list: FixturePaper[], extra: { records?: typeof fixtureRecords; tuples?: RetrievalTupleRow[] } = {}): RetrievalCorpus {
  const records = extra.records ?? [];
  return {
    version: `fixture-${list.length}`,
    papers: list.map((p) => ({ id: p.id, doi: p.doi, title: p.title, sourceId: p.id, source: 'Fixture', year: 2024 })),
    paragraphs: list.flatMap((p) =>
      p.paragraphs.map((x, i) => ({
        id: `${p.id}:p${i + 1}`,
        paperId: p.id,
        ordinal: i,
        externalId: `${p.id}:p${i + 1}`,
        section: x.section ?? null,
        kind: 'body',
        text: x.text,
        role: x.role ?? null,
        method: null,
      })),
    ),
    entities: [],
    recordCount: records.length,
    loadRecords: async (after) => (after === null ? records : []),
    loadTuples: pagesOf(extra.tuples ?? [], 1000),
  };
}

/** The retrieval index of a corpus, with the local embedder fitted on it. */
export async function indexOf(corpus: RetrievalCorpus): Promise<RetrievalIndex> {
  return buildRetrievalIndex(corpus, localTextEmbedder(fitLocalHashEmbedder(corpus.paragraphs.map((p) => p.text))));
}

export async function fixtureIndex(): Promise<RetrievalIndex> {
  return indexOf(fixtureCorpus());
}

/**
 * An index's paragraphs as plain objects, in order, to compare a built index with one read back: read back, a
 * paragraph's facets, sentences and spans are getters (lib/retrieval/packed-paragraphs.ts), which a deep equality
 * of the objects themselves would not look at.
 */
export const plainParagraphs = (paragraphs: RetrievalIndex['paragraphs']) =>
  [...paragraphs].map(([key, p]) => {
    const { id, paperId, ordinal, externalId, section, text, role, method, facets, sentences, sentenceSpans, table } = p;
    return { key, id, paperId, ordinal, externalId, section, text, role, method, facets, sentences, sentenceSpans, table };
  });

/** `rows` as the database pages them: in id order after `after` (null: from the first), `size` at a time, then an empty page. */
/** Rows as one page, in the order given (the page after it is empty): a page loader for hand-made rows. */
export const asOnePage =
  <T>(rows: T[]) =>
  async (after: string | null): Promise<T[]> =>
    after === null ? rows : [];

export function pagesOf<T extends { id: string }>(rows: T[], size: number, asked: (string | null)[] = []): (after: string | null) => Promise<T[]> {
  const sorted = [...rows].sort((a, b) => (a.id < b.id ? -1 : 1));
  return async (after) => {
    asked.push(after);
    const from = after === null ? 0 : sorted.findIndex((r) => r.id > after);
    return from < 0 ? [] : sorted.slice(from, from + size);
  };
}

/** A paragraph evidence item with nothing matched and no provenance: for tests of what is read from an item's text. */
export const paragraphEvidence = (id: string, text: string, paperId = 'p'): Evidence => ({
  id: `paragraph:${id}`,
  kind: 'paragraph',
  text,
  score: 1,
  coverage: null,
  matched: { materials: [], quantities: [], properties: [] },
  paperId,
  doi: null,
  section: null,
  provenance: [],
});
