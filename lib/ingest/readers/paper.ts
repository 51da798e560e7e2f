import { cleanText } from '../text.ts';
import { nonContentKind } from '../non-content.ts';
import type { ParsedParagraph, ParsedPaper, ReaderName } from '../types.ts';

/** What a reader knows of a paper; `finishPaper` gives every reader's paper the same end. */
export interface PaperFields {
  format: ReaderName;
  source: string;
  paragraphs: ParsedParagraph[];
  doi?: string | null;
  title?: string | null;
  authors?: string[];
  journal?: string | null;
  year?: number | null;
  license?: string | null;
  sourceId?: string | null;
  domain?: string | null;
  meta?: Record<string, unknown>;
}

const tidy = (s: string | null | undefined): string | null => (s ? cleanText(s) || null : null);

/**
 * The one end of every reader (JATS, TEI, PDF, text, corpus JSON lines): metadata text cleaned (white space folded,
 * NFC; an empty field is null, an empty author dropped), fields a format lacks null, front and back matter marked
 * (non-content.ts), and the abstract as the text of the paper's abstract paragraphs.
 */
export function finishPaper(f: PaperFields): ParsedPaper {
  // Author blocks, acknowledgements and the like are marked, not dropped: the paper page shows them, the index skips them.
  const paragraphs = f.paragraphs.map((p) => (p.kind === 'body' ? { ...p, kind: nonContentKind(p.text, p.section) ?? p.kind } : p));
  return {
    doi: f.doi ?? null,
    title: tidy(f.title),
    authors: (f.authors ?? []).map(cleanText).filter(Boolean),
    journal: tidy(f.journal),
    year: f.year ?? null,
    license: tidy(f.license),
    source: f.source,
    sourceId: f.sourceId ?? null,
    domain: f.domain ?? null,
    abstract:
      paragraphs
        .filter((p) => p.kind === 'abstract')
        .map((p) => p.text)
        .join('\n\n') || null,
    format: f.format,
    paragraphs,
    ...(f.meta ? { meta: f.meta } : {}),
  };
}
