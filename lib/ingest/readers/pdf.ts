import { readWhole } from '../files.ts';
import { cleanText, findLabelledDoi, normaliseDoi } from '../text.ts';
import { InputError, type Reader } from '../types.ts';
import { layoutParagraphs, type PageText } from './pdf-layout.ts';
import { finishPaper } from './paper.ts';
import { type PdfTable, TableExtractionError, tabulaTables } from '../pdf-tables/tabula.ts';
import { placeTables, usefulTables, withoutTables } from '../pdf-tables/place.ts';

/**
 * PDF through pdf.js (the `unpdf` build for server runtimes): positioned text per page, then paragraphs and
 * headings rebuilt from the layout (see pdf-layout.ts). Scanned PDFs without a text layer are reported, not guessed.
 */
export const pdfReader: Reader = {
  name: 'pdf',
  label: 'PDF',
  extensions: ['.pdf'],
  // The magic number near the start (some files put a few bytes before it).
  detect: (head) => head.bytes.subarray(0, 1024).includes('%PDF-') || null,
  async *read(file, ctx) {
    const bytes = await readWhole(file.path, ctx.maxItemBytes);
    if (bytes.subarray(0, 1024).indexOf('%PDF-') === -1) throw new InputError('not a PDF file (no %PDF- header)');
    const { getDocumentProxy, extractTextItems, getMeta } = await import('unpdf');
    let doc;
    try {
      // verbosity 0: a damaged PDF is reported once as an import error, not as pages of pdf.js warnings in the log.
      doc = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    } catch (error) {
      const msg = (error as Error).message || String(error);
      throw new InputError(/password/i.test(msg) ? 'the PDF is encrypted with a password' : `unreadable PDF: ${msg}`);
    }
    try {
      const pages: PageText[] = [];
      try {
        const { items } = await extractTextItems(doc);
        for (let i = 0; i < doc.numPages; i++) {
          const viewport = (await doc.getPage(i + 1)).getViewport({ scale: 1 });
          pages.push({
            width: viewport.width,
            height: viewport.height,
            runs: (items[i] ?? []).map((it) => ({ str: it.str, x: it.x, y: it.y, width: it.width, fontSize: it.fontSize || it.height })),
          });
        }
      } catch (error) {
        // A damaged cross-reference table or content stream surfaces here, after the document opened.
        throw new InputError(`unreadable PDF: ${((error as Error).message || String(error)).slice(0, 200)}`);
      }
      // Tables first (Tabula, when asked for): their text leaves the prose and returns as table rows.
      let found: PdfTable[] = [];
      let tableProblem: string | null = null;
      if (ctx.pdfTables === 'tabula') {
        try {
          found = usefulTables(await tabulaTables(file.path));
        } catch (error) {
          if (!(error instanceof TableExtractionError)) throw error;
          tableProblem = error.message;
        }
      }
      const layout = layoutParagraphs(withoutTables(pages, found));
      const { title: layoutTitle } = layout;
      const { paragraphs, tables } = placeTables(layout.paragraphs, found);
      if (paragraphs.length === 0) {
        throw new InputError('the PDF has no extractable text (a scanned image? run OCR on it first)');
      }
      const info = (await getMeta(doc).catch(() => ({ info: {} as Record<string, unknown> }))).info as Record<string, unknown>;
      const metaTitle = typeof info.Title === 'string' && info.Title.trim().length > 8 ? cleanText(info.Title) : null;
      const firstPageText = paragraphs
        .filter((p) => p.page === 1)
        .map((p) => p.text)
        .join('\n');
      const author = typeof info.Author === 'string' ? info.Author : '';
      const year = /\b((?:19|20)\d\d)/.exec(String(info.CreationDate ?? ''))?.[1];
      yield {
        type: 'paper',
        location: 'document',
        paper: finishPaper({
          doi: findLabelledDoi(firstPageText) ?? normaliseDoi(typeof info.Subject === 'string' ? info.Subject : null),
          title: layoutTitle ?? metaTitle,
          authors: author ? author.split(/\s*(?:;|,| and )\s*/) : [],
          year: year ? Number(year) : null,
          source: 'PDF',
          format: 'pdf',
          paragraphs,
          meta: { fileName: file.displayName, pages: doc.numPages, ...(tables.length ? { tables } : {}) },
        }),
      };
      // The paper is imported either way; the run's report says its tables were not read, and why.
      if (tableProblem) yield { type: 'error', location: 'tables', reason: `tables not read: ${tableProblem}` };
    } finally {
      await doc.destroy();
    }
  },
};
