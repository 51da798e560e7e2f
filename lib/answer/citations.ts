import { splitSentences } from '../structure/sentences.ts';
import type { AnswerSentence } from './types.ts';

/**
 * The citation guard. Evidence goes to a model as blocks labelled from the answer's pool ([E1] … ); the model's
 * text is split into sentences with their markers, and a marker is kept only when it names a block it was shown.
 * Anything else — an invented [E99], an id copied from a paper's text, a URL — is removed and the sentence is
 * flagged, so a fabricated or injected citation never reaches the reader.
 */
const MARKER = /\[(?:E\d+(?:\s*[,;]\s*E\d+)*|[^\]\n]{0,40}\d[^\]\n]{0,40})\]/g;
const LABEL = /E(\d+)/g;

/** The blocks a model was shown: their pool labels (`labelledItems`) and the items' ids. */
export type ShownBlocks = readonly { label: string; item: { id: string } }[];

export function guardCitations(text: string, shown: ShownBlocks): Omit<AnswerSentence, 'verdict' | 'check'>[] {
  const byLabel = new Map(shown.map((b) => [b.label, b.item.id]));
  return splitSentences(text.trim())
    .map((s) => {
      const citations: string[] = [];
      const flags: string[] = [];
      for (const m of s.text.matchAll(MARKER)) {
        const labels = [...m[0].matchAll(LABEL)].map((x) => `E${x[1]}`);
        if (labels.length === 0) flags.push('citation-removed');
        for (const label of labels) {
          const id = byLabel.get(label);
          if (id) {
            if (!citations.includes(id)) citations.push(id);
          } else flags.push('citation-removed');
        }
      }
      const clean = s.text
        .replace(MARKER, '')
        .replace(/\s+([.,;:!?])/g, '$1')
        .replace(/\s{2,}/g, ' ')
        .trim();
      return { text: clean, citations, flags: [...new Set(flags)] };
    })
    .filter((s) => s.text.length > 0);
}
