/**
 * The one evidence model. Every retrieval pipeline returns `Evidence` items; evaluation, the API, the UI and
 * (next) cited answers read them and nothing else. An item says what it is (`kind`), what it says (`text`), how
 * well it answers (`score`, `coverage`, `matched`) and where it comes from (`provenance`: the paper, paragraph,
 * sentence with its character span, structured record or graph tuple behind it). Ids are stable within a corpus
 * version (`<kind>:<source id>`), so a citation or a design suggestion can point at an item by id.
 *
 * This module is a leaf: it imports nothing of the project's, and any layer may import it.
 */

export const EVIDENCE_KINDS = ['paragraph', 'chunk', 'record', 'tuple', 'path'] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

/** The question's materials (canonical `f:`/`m:` keys), values (as written) and properties an item states. */
export interface MatchedFacets {
  materials: string[];
  quantities: string[];
  properties: string[];
  /** Matched materials as the question writes them ("LiFePO4" for the key `f:FeLiO4P`), where it writes them. */
  names?: Record<string, string>;
}

export const noMatchedFacets = (): MatchedFacets => ({ materials: [], quantities: [], properties: [] });

/** A matched material as a reader should see it: as the question wrote it, else its canonical name without the prefix. */
export const matchedMaterialName = (matched: MatchedFacets, key: string): string => matched.names?.[key] ?? key.replace(/^[fm]:/, '');

/** Where a piece of evidence comes from; an item lists one entry per level it can name. */
export type Provenance =
  | { kind: 'paper'; paperId: string | null; doi: string | null; title: string | null }
  | {
      kind: 'paragraph';
      paperId: string;
      paragraphId: string;
      /** Position in its paper: the paper page's `#p<ordinal>` anchor. */
      ordinal: number;
      /** The corpus's own id ("mulms-sofc-02:p2"), for gold comparison. */
      externalId: string | null;
      section: string | null;
    }
  | { kind: 'sentence'; paragraphId: string; start: number; end: number; text: string }
  /**
   * The table cell an item's value is read from (a table row's paragraph): its address `table:<id>#r<row>c<col>`,
   * the table's label, the column's header and the value's span in the paragraph.
   */
  | { kind: 'cell'; paragraphId: string; address: string; table: string | null; column: string; start: number; end: number }
  /** recordKind is unknown (absent) where the record is named by a graph tuple drawn from it. */
  | { kind: 'record'; recordId: string; recordKind?: string }
  | { kind: 'tuple'; tupleId: string };

export interface Evidence {
  /** `<kind>:<source id>`, e.g. `paragraph:…`, `tuple:…`; stable for a corpus version. */
  id: string;
  kind: EvidenceKind;
  text: string;
  score: number;
  /** Share of the question's materials, values and properties this item states (null: the question names none). */
  coverage: number | null;
  matched: MatchedFacets;
  /** The paper it belongs to, when there is one (records may have only a DOI). */
  paperId: string | null;
  doi: string | null;
  section: string | null;
  provenance: Provenance[];
  /** Graph tuples: the tuple lies on a multi-hop or causal path between the question's entities. */
  onPath?: boolean;
}

export const evidenceId = (kind: EvidenceKind, sourceId: string): string => `${kind}:${sourceId}`;

type ProvenanceOf<K extends Provenance['kind']> = Extract<Provenance, { kind: K }>;

export function provenanceOf<K extends Provenance['kind']>(e: Pick<Evidence, 'provenance'>, kind: K): ProvenanceOf<K>[] {
  return e.provenance.filter((p): p is ProvenanceOf<K> => p.kind === kind);
}

/** Database ids of the paragraphs an item rests on (a chunk covers several, a tuple one or none). */
export const paragraphIdsOf = (e: Pick<Evidence, 'provenance'>): string[] => provenanceOf(e, 'paragraph').map((p) => p.paragraphId);

/** Corpus ids of those paragraphs, for comparison with gold paragraphs. */
export const externalIdsOf = (e: Pick<Evidence, 'provenance'>): string[] =>
  provenanceOf(e, 'paragraph')
    .map((p) => p.externalId)
    .filter((x): x is string => !!x);

export const tupleIdsOf = (e: Pick<Evidence, 'provenance'>): string[] => provenanceOf(e, 'tuple').map((p) => p.tupleId);

export const paperOf = (e: Pick<Evidence, 'provenance'>): ProvenanceOf<'paper'> | null => provenanceOf(e, 'paper')[0] ?? null;

/** Paragraphs a paper page shows at once: a long paper is read in pages. */
export const PAPER_PAGE_SIZE = 200;

/** The paper page showing a paragraph, scrolled to it: `/papers/<id>#p<ordinal>`, with `?page=` past the first page. */
export function paragraphHref(paperId: string, ordinal: number | null): string {
  if (ordinal === null) return `/papers/${paperId}`;
  const page = Math.floor(ordinal / PAPER_PAGE_SIZE) + 1;
  return `/papers/${paperId}${page > 1 ? `?page=${page}` : ''}#p${ordinal}`;
}

/** Where to open an item in the app: its paper page, scrolled to its (first) paragraph. */
export function evidenceHref(e: Pick<Evidence, 'provenance'>): string | null {
  const paragraph = provenanceOf(e, 'paragraph')[0];
  if (paragraph) return paragraphHref(paragraph.paperId, paragraph.ordinal);
  const paper = paperOf(e);
  return paper?.paperId ? `/papers/${paper.paperId}` : null;
}

/** Items by id, for resolving references (design suggestions, citations) to their provenance. */
export function evidenceById(items: Iterable<Evidence>): Map<string, Evidence> {
  const out = new Map<string, Evidence>();
  for (const e of items) if (!out.has(e.id)) out.set(e.id, e);
  return out;
}
