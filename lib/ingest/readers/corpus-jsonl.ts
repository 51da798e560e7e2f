import { z } from 'zod';
import { cleanText, normaliseDoi } from '../text.ts';
import type { ParsedParagraph, Reader } from '../types.ts';
import { classifyJsonObject, jsonLines } from './jsonl.ts';
import { finishPaper } from './paper.ts';

const nullableString = z
  .string()
  .nullish()
  .transform((v) => v ?? null);
const corpusPaper = z.object({
  id: z.string().min(1),
  doi: nullableString,
  title: nullableString,
  authors: z
    .array(z.string())
    .nullish()
    .transform((v) => v ?? []),
  journal: nullableString,
  year: z
    .number()
    .int()
    .nullish()
    .transform((v) => v ?? null),
  license: nullableString,
  source: z.string().min(1),
  source_id: nullableString,
  also_in: z.array(z.object({ source: z.string(), source_id: z.string() })).nullish(),
  domain: nullableString,
  paragraphs: z.array(z.object({ id: nullableString, section: nullableString, text: z.string() })).min(1, 'a paper needs at least one paragraph'),
});

/** The corpus JSON-lines format of ../shared/data/corpus: one paper with its paragraphs per line. */
export const corpusJsonlReader: Reader = {
  name: 'corpus-jsonl',
  label: 'corpus JSON lines',
  extensions: ['.jsonl', '.ndjson'],
  detect: (head) => {
    if (!head.firstJson) return null;
    // A first line longer than the head read: the file name decides.
    if ('unparsed' in head.firstJson) return /papers?\.jsonl$/.test(head.name) || head.name.includes('corpus') || null;
    return classifyJsonObject(head.firstJson.value) === 'corpus' || null;
  },
  async *read(file, ctx) {
    for await (const line of jsonLines(file, ctx)) {
      const location = `line ${line.lineNo}`;
      if ('error' in line) {
        yield { type: 'error', location, reason: line.error };
        continue;
      }
      const parsed = corpusPaper.safeParse(line.value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        yield { type: 'error', location, reason: `not a corpus paper: ${issue.path.join('.') || 'line'}: ${issue.message}` };
        continue;
      }
      const p = parsed.data;
      const paragraphs: ParsedParagraph[] = p.paragraphs
        .map((para) => ({
          text: cleanText(para.text),
          section: para.section ? cleanText(para.section) : null,
          kind: classifySection(para.section),
          externalId: para.id,
        }))
        .filter((para) => para.text.length > 0);
      if (paragraphs.length === 0) {
        yield { type: 'error', location, reason: `paper ${p.id} has only empty paragraphs` };
        continue;
      }
      yield {
        type: 'paper',
        location,
        paper: finishPaper({
          doi: normaliseDoi(p.doi),
          title: p.title,
          authors: p.authors,
          journal: p.journal,
          year: p.year,
          license: p.license,
          source: p.source,
          sourceId: p.id,
          domain: p.domain,
          format: 'corpus-jsonl',
          paragraphs,
          meta: { sourceDatasetId: p.source_id, alsoIn: p.also_in ?? [] },
        }),
      };
    }
  },
};

function classifySection(section: string | null): ParsedParagraph['kind'] {
  if (!section) return 'body';
  if (/^abstract$/i.test(section.trim())) return 'abstract';
  if (/caption$/i.test(section.trim())) return 'caption';
  return 'body';
}
