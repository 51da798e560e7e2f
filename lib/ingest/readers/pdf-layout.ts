import { cleanText } from '../text.ts';
import type { ParsedParagraph } from '../types.ts';

/** A positioned run of text on a page, PDF coordinates (origin bottom-left), as pdf.js reports it. */
export interface TextRun {
  str: string;
  x: number;
  y: number;
  width: number;
  fontSize: number;
}
export interface PageText {
  width: number;
  height: number;
  runs: TextRun[];
}

interface Line {
  page: number;
  x0: number;
  x1: number;
  y: number;
  size: number;
  text: string;
}

const knownHeadings =
  /^(?:\d+(?:\.\d+)*\.?\s+|[IVX]+\.\s+)?(abstract|introduction|background|experimental(?: section| details)?|materials and methods|methods?|results(?: and discussion)?|discussion|conclusions?|summary|acknowledg(?:e)?ments?|references|bibliography|supporting information|appendix)\.?$/i;
const numberedHeading = /^(?:\d+(?:\.\d+){0,3}\.?|[IVX]+\.)\s+[A-Z][^.!?]{2,80}$/;

/**
 * Rebuilds paragraphs from positioned text: runs → lines (same baseline), two-column pages read column by
 * column, page furniture (page numbers, running headers/footers) dropped, paragraphs split on vertical gaps,
 * indents and font changes, headings detected by size, numbering or common names, end-of-line hyphens joined.
 */
export function layoutParagraphs(pages: PageText[]): { title: string | null; paragraphs: ParsedParagraph[] } {
  const pageLines = pages.map((p, i) => orderColumns(toLines(p, i + 1), p.width));
  dropFurniture(pageLines);
  const all = pageLines.flat();
  if (all.length === 0) return { title: null, paragraphs: [] };

  const bodySize = modeSize(all);
  const title = findTitle(pageLines[0] ?? [], bodySize);
  const paragraphs: ParsedParagraph[] = [];
  let section: string | null = null;
  let buf: Line[] = [];
  const flush = () => {
    if (buf.length === 0) return;
    const text = joinLines(buf.map((l) => l.text));
    buf = [];
    if (!text) return;
    const isAbstract = section !== null && /^abstract$/i.test(section);
    const isCaption = /^(fig(?:ure)?|table)\.?\s*\d+/i.test(text);
    paragraphs.push({
      text,
      section: isCaption ? (/^table/i.test(text) ? 'Table caption' : 'Figure caption') : section,
      kind: isCaption ? 'caption' : isAbstract ? 'abstract' : 'body',
      page: firstPage,
    });
  };
  let firstPage = 1;
  let prev: Line | null = null;
  for (const line of all) {
    if (title && line.page === 1 && titleLines.has(line)) continue;
    if (isHeading(line, bodySize)) {
      flush();
      section = cleanText(line.text.replace(/^(?:\d+(?:\.\d+)*\.?|[IVX]+\.)\s+/, '')).replace(/[.:]$/, '');
      prev = null;
      continue;
    }
    // A labelled abstract that runs on in the same line ("Abstract. We report …").
    const inline = /^(abstract)[.:—–-]\s+(.{20,})$/i.exec(line.text);
    if (inline) {
      flush();
      section = 'Abstract';
      line.text = inline[2];
    }
    if (prev && startsNewParagraph(prev, line, bodySize)) flush();
    if (buf.length === 0) firstPage = line.page;
    buf.push(line);
    prev = line;
  }
  flush();
  return { title, paragraphs };
}

const titleLines = new WeakSet<Line>();

function toLines(page: PageText, pageNo: number): Line[] {
  const runs = page.runs.filter((r) => r.str.trim().length > 0).sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: Line[] = [];
  for (const r of runs) {
    const tol = Math.max(1.5, r.fontSize * 0.35);
    // Same baseline and horizontally adjacent (a wide gap means another column).
    const line = lines.find((l) => Math.abs(l.y - r.y) <= tol && r.x >= l.x0 - 1 && r.x - l.x1 < Math.max(12, r.fontSize * 1.6));
    if (line) {
      const gap = r.x - line.x1;
      line.text += (gap > r.fontSize * 0.15 && !line.text.endsWith(' ') && !r.str.startsWith(' ') ? ' ' : '') + r.str;
      line.x1 = Math.max(line.x1, r.x + r.width);
      line.size = Math.max(line.size, r.fontSize);
    } else {
      lines.push({ page: pageNo, x0: r.x, x1: r.x + r.width, y: r.y, size: r.fontSize, text: r.str });
    }
  }
  for (const l of lines) l.text = l.text.replace(/\s+/g, ' ').trim();
  return lines.filter((l) => l.text);
}

/** On a two-column page, full-width lines keep their place and the left column is read before the right. */
function orderColumns(lines: Line[], width: number): Line[] {
  const mid = width / 2;
  const narrow = lines.filter((l) => l.x1 - l.x0 < width * 0.55);
  const right = narrow.filter((l) => l.x0 >= mid - width * 0.02);
  const twoColumn = lines.length >= 8 && right.length >= lines.length * 0.25 && narrow.length >= lines.length * 0.6;
  const byY = (a: Line, b: Line) => b.y - a.y || a.x0 - b.x0;
  if (!twoColumn) return [...lines].sort(byY);
  const isRight = (l: Line) => l.x0 >= mid - width * 0.02 && l.x1 - l.x0 < width * 0.55;
  const isFull = (l: Line) => l.x0 < mid && l.x1 > mid + width * 0.05;
  // Full-width lines above the columns (title block) come first, then left column, then right column.
  const columnTop = Math.max(...lines.filter((l) => !isFull(l)).map((l) => l.y));
  const head = lines.filter((l) => isFull(l) && l.y > columnTop).sort(byY);
  const rest = lines.filter((l) => !head.includes(l));
  return [...head, ...rest.filter((l) => !isRight(l)).sort(byY), ...rest.filter(isRight).sort(byY)];
}

/** Page numbers and lines repeated at the same height on most pages (running headers and footers). */
function dropFurniture(pageLines: Line[][]) {
  const counts = new Map<string, number>();
  const key = (l: Line) => `${Math.round(l.y / 4)}|${l.text.replace(/\d+/g, '#').toLowerCase()}`;
  for (const lines of pageLines) for (const k of new Set(lines.map(key))) counts.set(k, (counts.get(k) ?? 0) + 1);
  const repeated = (l: Line) => pageLines.length >= 3 && (counts.get(key(l)) ?? 0) >= Math.ceil(pageLines.length * 0.6);
  for (let i = 0; i < pageLines.length; i++) {
    pageLines[i] = pageLines[i].filter((l) => !/^(?:page\s*)?\d{1,4}(?:\s*(?:of|\/)\s*\d{1,4})?$/i.test(l.text) && !repeated(l));
  }
}

function modeSize(lines: Line[]): number {
  const weight = new Map<number, number>();
  for (const l of lines) {
    const s = Math.round(l.size * 2) / 2;
    weight.set(s, (weight.get(s) ?? 0) + l.text.length);
  }
  return [...weight.entries()].sort((a, b) => b[1] - a[1])[0][0];
}

/** The largest text in the top half of page 1 (consecutive lines of that size), when clearly above body size. */
function findTitle(lines: Line[], bodySize: number): string | null {
  if (lines.length === 0) return null;
  const top = Math.max(...lines.map((l) => l.y));
  const candidates = lines.filter((l) => l.y > top - 400 && l.text.length > 3);
  if (candidates.length === 0) return null;
  const maxSize = Math.max(...candidates.map((l) => l.size));
  if (maxSize < bodySize * 1.25) return null;
  const picked = candidates.filter((l) => l.size >= maxSize - 0.5);
  for (const l of picked) titleLines.add(l);
  return cleanText(picked.map((l) => l.text).join(' '));
}

function isHeading(l: Line, bodySize: number): boolean {
  const t = l.text.trim();
  if (t.length > 90 || (/[.,;]$/.test(t) && !knownHeadings.test(t))) return false;
  if (knownHeadings.test(t)) return true;
  if (l.size >= bodySize * 1.15 && t.length >= 3 && /[A-Za-z]/.test(t)) return true;
  return numberedHeading.test(t) && l.size >= bodySize * 0.98 && !/\d\s*(?:°|K|nm|mg|mL|h)\b/.test(t);
}

function startsNewParagraph(prev: Line, line: Line, bodySize: number): boolean {
  // Text flows on across a page or column break: the paragraph continues unless a gap or indent says otherwise.
  if (line.page !== prev.page || line.y > prev.y) return false;
  const gap = prev.y - line.y;
  if (gap > Math.max(prev.size, line.size) * 1.75) return true;
  if (Math.abs(line.size - prev.size) > bodySize * 0.2) return true;
  const indent = line.x0 - prev.x0;
  return indent > bodySize * 0.8 && indent < bodySize * 5 && /[.!?:]["')\]]?$/.test(prev.text);
}

/** Joins lines, mending words hyphenated across line ends ("scaf-" + "fold" → "scaffold"). */
export function joinLines(lines: string[]): string {
  let out = '';
  for (const raw of lines) {
    const line = raw.trim();
    if (!line) continue;
    if (out.endsWith('-') && /^[a-z]/.test(line) && /[a-z]-$/.test(out) && !/\b(?:self|non|co|anti|well|high|low|sol)-$/i.test(out)) {
      out = out.slice(0, -1) + line;
    } else {
      out += (out ? ' ' : '') + line;
    }
  }
  return cleanText(out);
}
