import type { DocumentLimits } from '../common/document-limits.ts';

/** What every reader produces, whatever the input format. */

export type ReaderName = 'corpus-jsonl' | 'records-jsonl' | 'tei' | 'jats' | 'pdf' | 'text';

export interface ParsedParagraph {
  text: string;
  section: string | null;
  /** front-matter and back-matter paragraphs are kept and shown but never evidence (non-content.ts). */
  kind: 'body' | 'abstract' | 'caption' | 'table' | 'front-matter' | 'back-matter';
  page?: number | null;
  externalId?: string | null;
}

export interface ParsedPaper {
  doi: string | null;
  title: string | null;
  authors: string[];
  journal: string | null;
  year: number | null;
  license: string | null;
  source: string;
  sourceId: string | null;
  domain: string | null;
  abstract: string | null;
  format: ReaderName;
  paragraphs: ParsedParagraph[];
  meta?: Record<string, unknown>;
}

export interface ParsedRecord {
  kind: string;
  source: string;
  doi: string | null;
  title: string | null;
  data: Record<string, unknown>;
}

/** `location` says where in the file the item came from: "line 12", "<body>/<div>[3]", "page 4". */
export type ReaderItem =
  | { type: 'paper'; paper: ParsedPaper; location: string }
  | { type: 'record'; record: ParsedRecord; location: string }
  | { type: 'error'; location: string; reason: string };

/** A file to ingest: on disk (CLI, corpus folder) or an uploaded copy saved in the data folder. */
export interface InputFile {
  path: string;
  /** Name shown in reports (the upload's original name, or the path given). */
  displayName: string;
  size: number;
}

export interface ReaderContext {
  /** Largest single item a reader accepts: one JSON line, or one whole XML/PDF/text document. */
  maxItemBytes: number;
  /** What one document may hold (XML elements are counted by the XML readers before parsing). */
  limits?: DocumentLimits;
  /** How PDF tables are read: by Tabula (lib/ingest/pdf-tables), or not at all (their text stays in the prose). */
  pdfTables?: 'tabula' | 'off';
}

export interface Reader {
  name: ReaderName;
  read(file: InputFile, ctx: ReaderContext): AsyncIterable<ReaderItem>;
}

/** A problem the reader found with the whole file, reported as one error and never thrown past the pipeline. */
export class InputError extends Error {
  constructor(
    message: string,
    readonly location: string | null = null,
  ) {
    super(message);
  }
}
