import { readWhole } from '../files.ts';
import { cleanText, normaliseDoi } from '../text.ts';
import { InputError, type ParsedParagraph, type Reader } from '../types.ts';
import { child, childElements, descendants, parseXml, textOf, type XElement } from './xml.ts';
import { finishPaper } from './paper.ts';

const captionTypes: Record<string, string> = { figurecaption: 'Figure caption', tablecaption: 'Table caption' };

/**
 * TEI XML as produced by GROBID (and its superconductors variant): header metadata, abstract, body divisions
 * (`head` → section, `p` → paragraph) and figure/table captions, in document order.
 */
export const teiReader: Reader = {
  name: 'tei',
  async *read(file, ctx) {
    const root = parseXml(await readWhole(file.path, ctx.maxItemBytes), ctx.limits?.xmlElements);
    if (root.name !== 'tei') throw new InputError(`expected a <TEI> root element, found <${root.name}>`);
    const header = child(root, 'teiheader');
    const fileDesc = child(header, 'filedesc');
    const sourceDesc = child(fileDesc, 'sourcedesc');
    const paragraphs: ParsedParagraph[] = [];

    const abstract = child(header, 'profiledesc', 'abstract');
    for (const p of descendants(abstract, 'p')) push(paragraphs, textOf(p), 'Abstract', 'abstract');

    const body = child(root, 'text', 'body');
    if (body) walkBody(body, null, paragraphs);
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
        meta: { fileName: file.displayName },
      }),
    };
  },
};

const emptyEl: XElement = { name: '', attrs: {}, children: [] };

function walkBody(el: XElement, section: string | null, out: ParsedParagraph[]) {
  for (const c of childElements(el)) {
    switch (c.name) {
      case 'div': {
        const head = child(c, 'head');
        const title = head ? cleanText([head.attrs.n, textOf(head)].filter(Boolean).join(' ')) : '';
        walkBody(c, title || section, out);
        break;
      }
      case 'p':
        push(out, textOf(c), section, 'body');
        break;
      case 'figure': {
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

function push(out: ParsedParagraph[], raw: string, section: string | null, kind: ParsedParagraph['kind']) {
  const text = cleanText(raw);
  if (text) out.push({ text, section, kind });
}
