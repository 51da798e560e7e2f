import path from 'node:path';
import { readWhole } from '../files.ts';
import { cleanText, decodeText, findLabelledDoi, looksBinary } from '../text.ts';
import { InputError, type ParsedParagraph, type Reader } from '../types.ts';
import { finishPaper } from './paper.ts';

/**
 * Plain text and Markdown: paragraphs are blocks separated by blank lines; Markdown `#` headings (or short
 * stand-alone heading lines in plain text) become sections; the first level-1 heading or first line is the title.
 */
export const textReader: Reader = {
  name: 'text',
  label: 'text, Markdown',
  extensions: ['.txt', '.md', '.markdown'],
  // Plain text by its name, or a name without an extension, when it is neither XML nor JSON (nor binary: no text then).
  detect: (head) =>
    (!head.binary && head.xmlRoot === null && !head.firstJson && (/\.(txt|text|md|markdown)$/.test(head.name) || !/\.[a-z0-9]{1,5}$/.test(head.name))) || null,
  async *read(file, ctx) {
    const bytes = await readWhole(file.path, ctx.maxItemBytes);
    if (bytes.length === 0 || !bytes.toString('latin1').trim()) throw new InputError('the file is empty');
    if (looksBinary(bytes.subarray(0, 8192))) throw new InputError('the file is binary, not text');
    const text = decodeText(bytes);
    const markdown = /\.(md|markdown)$/i.test(file.displayName);
    const { title, paragraphs } = splitText(text, markdown);
    if (paragraphs.length === 0) throw new InputError('the file has no paragraphs of text');
    yield {
      type: 'paper',
      location: 'document',
      paper: finishPaper({
        doi: findLabelledDoi(text),
        title: title ?? path.basename(file.displayName).replace(/\.[^.]+$/, ''),
        source: markdown ? 'Markdown' : 'Text',
        format: 'text',
        paragraphs,
        meta: { fileName: file.displayName },
      }),
    };
  },
};

export function splitText(text: string, markdown: boolean): { title: string | null; paragraphs: ParsedParagraph[] } {
  const blocks = text.replace(/\r\n?/g, '\n').split(/\n\s*\n/);
  const paragraphs: ParsedParagraph[] = [];
  let title: string | null = null;
  let section: string | null = null;
  for (const raw of blocks) {
    let block = raw.trim();
    if (!block) continue;
    if (markdown) {
      if (/^(```|~~~)/.test(block)) continue; // code blocks are not prose
      // Headings may share a block with the text under them.
      const lines = block.split('\n');
      while (lines.length && /^#{1,6}\s+/.test(lines[0])) {
        const m = /^(#{1,6})\s+(.*?)\s*#*$/.exec(lines.shift()!)!;
        const heading = cleanText(stripMarkdown(m[2]));
        if (m[1].length === 1 && title === null && paragraphs.length === 0) title = heading;
        else section = heading;
      }
      block = lines.join('\n').trim();
      if (!block) continue;
      block = block
        .split('\n')
        .map((l) => l.replace(/^\s*(?:[-*+]|\d+\.)\s+/, '').replace(/^>\s?/, ''))
        .join('\n');
      block = stripMarkdown(block);
    } else {
      const single = !block.includes('\n');
      if (single && title === null && paragraphs.length === 0 && block.length < 250) {
        title = cleanText(block);
        continue;
      }
      if (single && block.length < 80 && !/[.,;:]$/.test(block) && /^[A-Z0-9]/.test(block)) {
        section = cleanText(block.replace(/^(?:\d+(?:\.\d+)*\.?|[IVX]+\.)\s+/, ''));
        continue;
      }
    }
    const clean = cleanText(block.replace(/(\w)-\n(\w)/g, '$1$2'));
    if (!clean) continue;
    const isAbstract = section !== null && /^abstract$/i.test(section);
    paragraphs.push({ text: clean, section, kind: isAbstract ? 'abstract' : 'body' });
  }
  return { title, paragraphs };
}

function stripMarkdown(s: string): string {
  return s
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^\w*])[*_]([^*_\n]+)[*_](?=[^\w*]|$)/g, '$1$2')
    .replace(/`([^`]+)`/g, '$1');
}
