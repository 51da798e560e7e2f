import { readWhole } from '../files.ts';
import { cleanText, normaliseDoi } from '../text.ts';
import { InputError, type ParsedParagraph, type Reader } from '../types.ts';
import { child, childElements, descendants, parseXml, textOf, type XElement } from './xml.ts';
import { finishPaper } from './paper.ts';

/** Floats and formulas are not running text: kept out of paragraph text (captions become their own paragraphs). */
const notRunningText = new Set(['fig', 'table-wrap', 'disp-formula', 'supplementary-material', 'graphic', 'fn', 'table']);

/** JATS XML (PubMed Central / Europe PMC full text): front matter, abstract, body sections, captions. */
export const jatsReader: Reader = {
  name: 'jats',
  async *read(file, ctx) {
    const root = parseXml(await readWhole(file.path, ctx.maxItemBytes), ctx.limits?.xmlElements);
    if (root.name !== 'article') throw new InputError(`expected an <article> root element, found <${root.name}>`);
    const front = child(root, 'front');
    const meta = child(front, 'article-meta');
    if (!meta) throw new InputError('the JATS article has no <front>/<article-meta>');
    const paragraphs: ParsedParagraph[] = [];
    for (const abs of childElements(meta, 'abstract').filter((a) => !a.attrs['abstract-type'] || a.attrs['abstract-type'] === 'summary')) {
      walk(abs, 'Abstract', 'abstract', paragraphs);
    }
    const body = child(root, 'body');
    if (body) walk(body, null, 'body', paragraphs);
    const floats = child(root, 'floats-group');
    if (floats) walk(floats, null, 'body', paragraphs);
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
        meta: { fileName: file.displayName },
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

function walk(el: XElement, section: string | null, kind: 'body' | 'abstract', out: ParsedParagraph[]) {
  for (const c of childElements(el)) {
    switch (c.name) {
      case 'sec': {
        const title = cleanText(textOf(child(c, 'title')));
        walk(c, title || section, kind, out);
        break;
      }
      case 'p': {
        push(out, textOf(c, notRunningText), section, kind);
        walkFloats(c, out);
        break;
      }
      case 'list':
      case 'list-item':
      case 'disp-quote':
      case 'boxed-text':
        walk(c, section, kind, out);
        break;
      case 'fig':
      case 'table-wrap':
        caption(c, out);
        break;
      case 'fig-group':
      case 'table-wrap-group':
        walkFloats(c, out);
        break;
      default:
        break;
    }
  }
}

/** Figures and tables nested inside a paragraph or group, emitted as caption paragraphs after it. */
function walkFloats(el: XElement, out: ParsedParagraph[]) {
  for (const c of childElements(el)) {
    if (c.name === 'fig' || c.name === 'table-wrap') caption(c, out);
    else if (c.name !== 'p') walkFloats(c, out);
  }
}

function caption(el: XElement, out: ParsedParagraph[]) {
  const text = [textOf(child(el, 'label')), textOf(child(el, 'caption'))].join(' ');
  push(out, text, el.name === 'fig' ? 'Figure caption' : 'Table caption', 'caption');
}

function push(out: ParsedParagraph[], raw: string, section: string | null, kind: ParsedParagraph['kind']) {
  const text = cleanText(raw);
  if (text) out.push({ text, section, kind });
}
