import type { Facets } from './facets.ts';
import type { TableRowCells } from './table-rows.ts';

/** The index's items as the pipelines read them, whether built or read back packed (packed-paragraphs.ts; records: record-file.ts). */

export interface IndexedParagraph {
  id: string;
  paperId: string;
  ordinal: number;
  externalId: string | null;
  section: string | null;
  text: string;
  role: string | null;
  method: string | null;
  facets: Facets;
  /** Facets of each sentence, in order. */
  sentences: Facets[];
  /** Character span of each sentence in `text`, aligned with `sentences` (for sentence provenance). */
  sentenceSpans: { start: number; end: number }[];
  /** A table row's paragraph: its table, row and where each cell's value stands in `text` (lib/ingest/tables.ts). */
  table?: TableRowCells;
}

/** An imported record (recipe, experiment) rendered as text, with its facets (record-index.ts). */
export interface IndexedRecord {
  id: string;
  paperId: string | null;
  doi: string | null;
  kind: string;
  title: string | null;
  text: string;
  facets: Facets;
}
