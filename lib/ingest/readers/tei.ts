import { readWhole } from '../files.ts';
import { cleanText, normaliseDoi } from '../text.ts';
import { InputError, type ParsedParagraph, type Reader } from '../types.ts';
import { child, childElements, descendants, parseXml, textOf, type XElement } from './xml.ts';
import { finishPaper } from './paper.ts';
import { type ParsedTable, type SourceCell, tableFromRows, tableParagraphs } from '../tables.ts';

const captionTypes: Record<string, string> = { figurecaption: 'Figure caption', tablecaption: 'Table caption' };

/**
 * TEI XML as produced by GROBID (and its superconductors variant): header metadata, abstract, body divisions
 * (`head` → section, `p` → paragraph) and figure/table captions, in document order.
 */
export const teiReader: Reader = {
  name: 'tei',
  label: 'TEI XML (GROBID)',
  extensions: ['.xml', '.tei'],
  detect: (head) => head.xmlRoot === 'tei' || head.xmlRoot === 'teicorpus' || null,
  async *read(file, ctx) {
    const root = parseXml(await readWhole(file.path, ctx.maxItemBytes), ctx.limits?.xmlElements);
    if (root.name !== 'tei') throw new InputError(`expected a <TEI> root element, found <${root.name}>`);
    const header = child(root, 'teiheader');
    const fileDesc = child(header, 'filedesc');
    const sourceDesc = child(fileDesc, 'sourcedesc');
    const paragraphs: ParsedParagraph[] = [];
    const tables: ParsedTable[] = [];

    const abstract = child(header, 'profiledesc', 'abstract');
    for (const p of descendants(abstract, 'p')) push(paragraphs, textOf(p), 'Abstract', 'abstract');

    const body = child(root, 'text', 'body');
    if (body) walkBody(body, null, paragraphs, tables);
    // GROBID puts tables after the body, in <back> or straight under <text>.
    for (const figure of descendants(child(root, 'text'), 'figure').filter((f) => f.attrs.type === 'table' && !descendants(body, 'figure').includes(f)))
      tableFigure(figure, paragraphs, tables);
    if (paragraphs.length === 0) throw new InputError('the TEI document has no abstract or body paragraphs');

    const titles = childElements(child(fileDesc, 'titlestmt') ?? emptyEl, 'title');
    const title =
      titles.find((t) => t.attrs.type === 'main' || t.attrs.level === 'a') ?? titles[0] ?? descendants(child(sourceDesc, 'biblstruct', 'analytic'), 'title')[0];
    const authors = descendants(sourceDesc, 'author')
      .map((a) => {
        const pers = child(a, 'persname');
        if (!pers) return cleanText(textOf(a));
        const given = descendants(pers, 'forename').map((f) => textOf(f));
        return cleanText([...given, textOf(child(pers, 'surname'))].join(' '));
      })
      .filter(Boolean);
    const idnos = descendants(header, 'idno');
    const doi = normaliseDoi(textOf(idnos.find((i) => /^doi$/i.test(i.attrs.type ?? ''))));
    const journal = descendants(sourceDesc, 'title').find((t) => t.attrs.level === 'j');
    const dates = descendants(header, 'date');
    const when = dates.map((d) => d.attrs.when ?? textOf(d)).find((w) => /\b(1[89]|20)\d\d\b/.test(w));
    const licence = descendants(header, 'licence')[0];
    yield {
      type: 'paper',
      location: 'document',
      paper: finishPaper({
        doi,
        title: title ? textOf(title) : null,
        authors,
        journal: journal ? textOf(journal) : null,
        year: when ? Number(/\b((?:1[89]|20)\d\d)\b/.exec(when)![1]) : null,
        license: licence ? licence.attrs.target || textOf(licence) : null,
        source: 'TEI',
        format: 'tei',
        paragraphs,
        meta: { fileName: file.displayName, ...(tables.length ? { tables } : {}) },
      }),
    };
  },
};

const emptyEl: XElement = { name: '', attrs: {}, children: [] };

function walkBody(el: XElement, section: string | null, out: ParsedParagraph[], tables: ParsedTable[]) {
  for (const c of childElements(el)) {
    switch (c.name) {
      case 'div': {
        const head = child(c, 'head');
        const title = head ? cleanText([head.attrs.n, textOf(head)].filter(Boolean).join(' ')) : '';
        walkBody(c, title || section, out, tables);
        break;
      }
      case 'p':
        push(out, textOf(c), section, 'body');
        break;
      case 'figure': {
        if (c.attrs.type === 'table' && tableFigure(c, out, tables)) break;
        const label = cleanText([textOf(child(c, 'head')), textOf(child(c, 'label'))].join(' '));
        const desc = cleanText(textOf(child(c, 'figdesc')));
        push(out, [label, desc].filter(Boolean).join(' '), c.attrs.type === 'table' ? 'Table caption' : 'Figure caption', 'caption');
        break;
      }
      case 'ab': {
        const kind = captionTypes[(c.attrs.type ?? '').toLowerCase()];
        if (kind) push(out, textOf(c), kind, 'caption');
        break;
      }
      default:
        break;
    }
  }
}

/** A `<figure type="table">` holding a TEI `<table>` of `<row>`s and `<cell>`s: its caption and rows (tables.ts). */
function tableFigure(figure: XElement, out: ParsedParagraph[], tables: ParsedTable[]): boolean {
  const table = child(figure, 'table');
  if (!table) return false;
  const rows = childElements(table, 'row').map((row) => ({
    label: row.attrs.role === 'label',
    cells: childElements(row, 'cell').map(
      (c): SourceCell => ({
        text: textOf(c),
        colspan: Number(c.attrs.cols) || 1,
        rowspan: Number(c.attrs.rows) || 1,
        header: c.attrs.role === 'label' || row.attrs.role === 'label',
      }),
    ),
  }));
  // Leading label rows are the header; the rest are the body.
  let headRows = 0;
  while (headRows < rows.length && rows[headRows].label) headRows++;
  const parsed = tableFromRows(
    figure.attrs.id || `T${tables.length + 1}`,
    cleanText(textOf(child(figure, 'head'))) || (textOf(child(figure, 'label')) ? `Table ${cleanText(textOf(child(figure, 'label')))}` : null),
    textOf(child(figure, 'figdesc')),
    rows.slice(0, headRows).map((r) => r.cells),
    rows.slice(headRows).map((r) => r.cells),
  );
  if (!parsed) return false;
  tables.push(parsed);
  out.push(...tableParagraphs(parsed));
  return true;
}

function push(out: ParsedParagraph[], raw: string, section: string | null, kind: ParsedParagraph['kind']) {
  const text = cleanText(raw);
  if (text) out.push({ text, section, kind });
}
