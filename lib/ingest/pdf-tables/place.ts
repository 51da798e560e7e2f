import { type ParsedTable, tableFromRows, tableParagraphs } from '../tables.ts';
import type { ParsedParagraph } from '../types.ts';
import type { PageText } from '../readers/pdf-layout.ts';
import type { PdfTable } from './tabula.ts';

/**
 * What the PDF reader does with the tables Tabula found (tabula.ts): keeps those that are tables of values (two rows
 * and two columns at least, a number in some cell), takes their text out of the page's prose (a table read line by
 * line is a jumble of numbers), and gives each its rows as table paragraphs placed after its caption ("Table 2. …")
 * when the page has one, else at the end of its page — the same table evidence JATS and TEI tables give.
 */
const NUMERIC = /\d/;

export function usefulTables(found: PdfTable[]): PdfTable[] {
  return found.filter(
    (t) =>
      t.rows.length >= 2 &&
      Math.max(...t.rows.map((r) => r.filter((c) => c.trim()).length)) >= 2 &&
      t.rows.slice(1).some((r) => r.some((c) => NUMERIC.test(c))),
  );
}

/** The pages without the runs inside a table's box (PDF y runs up from the page's bottom; Tabula's top runs down). */
export function withoutTables(pages: PageText[], tables: PdfTable[]): PageText[] {
  const slack = 2;
  return pages.map((page, i) => {
    const boxes = tables.filter((t) => t.page === i + 1);
    if (boxes.length === 0) return page;
    return {
      ...page,
      runs: page.runs.filter((r) => {
        const top = page.height - r.y;
        return !boxes.some((b) => top >= b.top - slack && top <= b.bottom + slack && r.x >= b.left - slack && r.x <= b.right + slack);
      }),
    };
  });
}

/** The tables as table evidence, their row paragraphs placed in the paper's paragraphs (a new list). */
export function placeTables(paragraphs: ParsedParagraph[], found: PdfTable[]): { paragraphs: ParsedParagraph[]; tables: ParsedTable[] } {
  const out = [...paragraphs];
  const tables: ParsedTable[] = [];
  const captionsUsed = new Set<ParsedParagraph>();
  for (const [i, t] of found.entries()) {
    // "Table 2. Conductivities …" over "Table 2 lists …" (a sentence the layout also takes for a caption).
    const onPage = out.filter((p) => p.kind === 'caption' && p.page === t.page && /^table\s*\d+/i.test(p.text) && !captionsUsed.has(p));
    const caption = onPage.find((p) => /^table\s*\d+\s*[.:]/i.test(p.text)) ?? onPage[0];
    if (caption) captionsUsed.add(caption);
    const label = caption ? (/^table\s*\d+/i.exec(caption.text)?.[0] ?? null) : null;
    const text = caption ? caption.text.replace(/^table\s*\d+\s*[.:]?\s*/i, '') : null;
    const cells = t.rows.map((r) => r.map((c) => ({ text: c.replace(/\s+/g, ' ').trim(), colspan: 1, rowspan: 1, header: false })));
    const table = tableFromRows(`P${t.page}T${i + 1}`, label, text, [], cells);
    if (!table) continue;
    tables.push(table);
    // The caption is a paragraph of the layout already; only the rows are added.
    const rows = tableParagraphs(table)
      .filter((p) => p.kind === 'table')
      .map((p) => ({ ...p, page: t.page }));
    const after = caption ? out.indexOf(caption) : out.findLastIndex((p) => (p.page ?? 1) <= t.page);
    out.splice(after + 1, 0, ...rows);
  }
  return { paragraphs: out, tables };
}
