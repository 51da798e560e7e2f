import type { DocumentLimits } from '../common/document-limits.ts';

/** What every reader produces, whatever the input format. */

/** A reader's name (lib/ingest/readers/registry.ts lists them), stored as each paper's `format`. */
export type ReaderName = string;

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

/**
 * The start of a file as detection sees it (lib/ingest/detect.ts reads it once for every reader): its first bytes
 * gunzipped, their text without a byte-order mark and leading space, the name without `.gz` in lower case, and what
 * the text looks like (the root element of XML, the first JSON line parsed).
 */
export interface FileHead {
  bytes: Buffer;
  /** Binary (not text, no byte-order mark): such a head has no text. */
  binary: boolean;
  text: string;
  name: string;
  /** The root element's local name in lower case, when the text starts with XML. */
  xmlRoot: string | null;
  /** The first line as JSON, when the text starts with `{` or the name says JSON lines: `unparsed` when it is cut. */
  firstJson: { value: unknown } | { unparsed: true } | null;
}

/**
 * What a reader says of a file's head: `true` (this reader's format), a reason to skip it or an error that names what
 * is wrong (a format it recognises but cannot read), or null (not its format; the next reader is asked).
 */
export type ReaderClaim = true | { skip: string } | { error: string } | null;

/**
 * A reader of one import format. It describes itself, so detection and the import screen read the registry
 * (lib/ingest/readers/registry.ts) and a new format is one file plus one line there.
 */
export interface Reader {
  name: ReaderName;
  /** What the import screen calls the format ("PDF", "TEI XML"). */
  label: string;
  /** File name endings the upload dialog offers (".pdf"); `.gz` of any of them is accepted too. */
  extensions: string[];
  /** Whether a file is this reader's, from its head; asked in the registry's order, the first claim wins. */
  detect(head: FileHead): ReaderClaim;
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
