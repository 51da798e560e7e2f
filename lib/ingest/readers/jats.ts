import { readWhole } from '../files.ts';
import { cleanText, normaliseDoi } from '../text.ts';
import { InputError, type ParsedParagraph, type Reader } from '../types.ts';
import { child, childElements, descendants, parseXml, textOf, type XElement } from './xml.ts';
import { finishPaper } from './paper.ts';
import { type ParsedTable, type SourceCell, tableFromRows, tableParagraphs } from '../tables.ts';

/** Floats and formulas are not running text: kept out of paragraph text (captions become their own paragraphs). */
const notRunningText = new Set(['fig', 'table-wrap', 'disp-formula', 'supplementary-material', 'graphic', 'fn', 'table']);

/** JATS XML (PubMed Central / Europe PMC full text): front matter, abstract, body sections, captions. */
export const jatsReader: Reader = {
  name: 'jats',
  label: 'JATS XML',
  extensions: ['.xml'],
  detect: (head) => head.xmlRoot === 'article' || null,
  async *read(file, ctx) {
    const root = parseXml(await readWhole(file.path, ctx.maxItemBytes), ctx.limits?.xmlElements);
    if (root.name !== 'article') throw new InputError(`expected an <article> root element, found <${root.name}>`);
    const front = child(root, 'front');
    const meta = child(front, 'article-meta');
    if (!meta) throw new InputError('the JATS article has no <front>/<article-meta>');
    const paragraphs: ParsedParagraph[] = [];
    const tables: ParsedTable[] = [];
    for (const abs of childElements(meta, 'abstract').filter((a) => !a.attrs['abstract-type'] || a.attrs['abstract-type'] === 'summary')) {
      walk(abs, 'Abstract', 'abstract', paragraphs, tables);
    }
    const body = child(root, 'body');
    if (body) walk(body, null, 'body', paragraphs, tables);
    const floats = child(root, 'floats-group');
    if (floats) walk(floats, null, 'body', paragraphs, tables);
    if (paragraphs.length === 0) throw new InputError('the JATS article has no abstract or body paragraphs');

    const ids = childElements(meta, 'article-id');
    const idOf = (...types: string[]) => ids.find((i) => types.includes(i.attrs['pub-id-type'] ?? ''));
    const pmc = idOf('pmc', 'pmcid');
    const journalMeta = child(front, 'journal-meta');
    const journal = descendants(journalMeta, 'journal-title')[0];
    const pubDates = childElements(meta, 'pub-date');
    const year = pubDates.map((d) => Number.parseInt(textOf(child(d, 'year')), 10)).find((y) => y > 1800);
    const license = descendants(child(meta, 'permissions'), 'license')[0];
    const authors = descendants(child(meta, 'contrib-group'), 'contrib')
      .filter((c) => !c.attrs['contrib-type'] || c.attrs['contrib-type'] === 'author')
      .map(personName)
      .filter(Boolean);
    const pmcId = pmc ? cleanText(textOf(pmc)) : null;
    yield {
      type: 'paper',
      location: 'document',
      paper: finishPaper({
        doi: normaliseDoi(textOf(idOf('doi'))),
        title: textOf(child(meta, 'title-group', 'article-title')),
        authors,
        journal: journal ? textOf(journal) : null,
        year: year ?? null,
        license: license ? license.attrs.href || license.attrs['license-type'] || cleanText(textOf(license)).slice(0, 300) : null,
        source: 'JATS',
        sourceId: pmcId ? (pmcId.toUpperCase().startsWith('PMC') ? pmcId.toUpperCase() : `PMC${pmcId}`) : null,
        format: 'jats',
        paragraphs,
        meta: { fileName: file.displayName, ...(tables.length ? { tables } : {}) },
      }),
    };
  },
};

function personName(contrib: XElement): string {
  const name = child(contrib, 'name');
  if (name) return cleanText([textOf(child(name, 'given-names')), textOf(child(name, 'surname'))].join(' '));
  const str = child(contrib, 'string-name') ?? child(contrib, 'collab');
  return str ? cleanText(textOf(str)) : '';
}

function walk(el: XElement, section: string | null, kind: 'body' | 'abstract', out: ParsedParagraph[], tables: ParsedTable[]) {
  for (const c of childElements(el)) {
    switch (c.name) {
      case 'sec': {
        const title = cleanText(textOf(child(c, 'title')));
        walk(c, title || section, kind, out, tables);
        break;
      }
      case 'p': {
        push(out, textOf(c, notRunningText), section, kind);
        walkFloats(c, out, tables);
        break;
      }
      case 'list':
      case 'list-item':
      case 'disp-quote':
      case 'boxed-text':
        walk(c, section, kind, out, tables);
        break;
      case 'fig':
      case 'table-wrap':
        float(c, out, tables);
        break;
      case 'fig-group':
      case 'table-wrap-group':
        walkFloats(c, out, tables);
        break;
      default:
        break;
    }
  }
}

/** Figures and tables nested inside a paragraph or group, emitted as caption paragraphs after it. */
function walkFloats(el: XElement, out: ParsedParagraph[], tables: ParsedTable[]) {
  for (const c of childElements(el)) {
    if (c.name === 'fig' || c.name === 'table-wrap') float(c, out, tables);
    else if (c.name !== 'p') walkFloats(c, out, tables);
  }
}

/** A figure's caption; a table's caption and rows (tables.ts), or its caption alone when it holds no cells (an image). */
function float(el: XElement, out: ParsedParagraph[], tables: ParsedTable[]) {
  const label = textOf(child(el, 'label'));
  const captionText = textOf(child(el, 'caption'));
  const table = el.name === 'table-wrap' ? jatsTable(el, label, captionText, tables.length) : null;
  if (table) {
    tables.push(table);
    out.push(...tableParagraphs(table));
    return;
  }
  push(out, [label, captionText].join(' '), el.name === 'fig' ? 'Figure caption' : 'Table caption', 'caption');
}

/** The XHTML-style table of a `table-wrap` (`thead`/`tbody`/`tr`/`th`/`td`, colspan and rowspan). */
function jatsTable(wrap: XElement, label: string, captionText: string, index: number): ParsedTable | null {
  const table = descendants(wrap, 'table')[0];
  if (!table) return null;
  const rowsOf = (el: XElement | undefined) =>
    descendants(el, 'tr').map((tr) =>
      childElements(tr)
        .filter((c) => c.name === 'td' || c.name === 'th')
        .map((c): SourceCell => ({ text: textOf(c), colspan: Number(c.attrs.colspan) || 1, rowspan: Number(c.attrs.rowspan) || 1, header: c.name === 'th' })),
    );
  const thead = childElements(table, 'thead');
  const head = thead.flatMap((h) => rowsOf(h));
  const bodies = childElements(table, 'tbody');
  // Rows straight under <table> (no tbody) are body rows too.
  const body = bodies.length
    ? bodies.flatMap((b) => rowsOf(b))
    : rowsOf({ ...table, children: table.children.filter((c) => typeof c !== 'string' && c.name === 'tr') });
  return tableFromRows(wrap.attrs.id || `T${index + 1}`, label, captionText, head, body);
}

function push(out: ParsedParagraph[], raw: string, section: string | null, kind: ParsedParagraph['kind']) {
  const text = cleanText(raw);
  if (text) out.push({ text, section, kind });
}
