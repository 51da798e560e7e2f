import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { decodeText } from '../text.ts';
import { DEFAULT_DOCUMENT_LIMITS } from '../../common/document-limits.ts';
import { xmlElementCountError } from '../limits.ts';
import { InputError } from '../types.ts';

/** A small element tree over fast-xml-parser's ordered output: enough for TEI and JATS, namespace prefixes dropped. */
export interface XElement {
  name: string;
  attrs: Record<string, string>;
  children: XNode[];
}
export type XNode = XElement | string;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

/**
 * Decodes (honouring the declared encoding) and parses XML; malformed XML is an error with line and column, and a
 * document of more than `maxElements` elements is refused before it is built into a tree.
 */
export function parseXml(bytes: Uint8Array, maxElements = DEFAULT_DOCUMENT_LIMITS.xmlElements): XElement {
  const prolog = Buffer.from(bytes.subarray(0, 200)).toString('latin1');
  const declared = /^\s*<\?xml[^>]*encoding=["']([A-Za-z0-9._-]+)["']/.exec(prolog)?.[1] ?? null;
  const text = decodeText(bytes, declared);
  if (!text.trim()) throw new InputError('the file is empty');
  // Entity declarations enable "billion laughs" expansion; real TEI/JATS never needs internal ones.
  if (/<!DOCTYPE[^>]*\[[\s\S]*?<!ENTITY/i.test(text.slice(0, 100_000))) {
    throw new InputError('XML with DTD entity declarations is not accepted');
  }
  const tooMany = xmlElementCountError(text, maxElements);
  if (tooMany) throw new InputError(tooMany);
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    const { msg, line, col } = valid.err;
    // fast-xml-parser reports elements left open at the end as "Invalid '[...]' found" at line 1.
    const open = /^Invalid '\[(.*)\]' found/.exec(msg);
    if (open) {
      const names = open[1].split(',').map((n) => `<${n.trim().replace(/^"|"$/g, '')}>`);
      const lastLine = text.split('\n').length;
      throw new InputError(
        `malformed XML: the file ends before ${names.join(', ')} ${names.length === 1 ? 'is' : 'are'} closed (truncated?)`,
        `line ${lastLine}, end of file`,
      );
    }
    throw new InputError(`malformed XML: ${msg}`, `line ${line}, column ${col}`);
  }
  const ordered = parser.parse(text) as unknown[];
  const roots = ordered.map(convert).filter((n): n is XElement => typeof n !== 'string');
  if (roots.length === 0) throw new InputError('the XML document has no root element');
  return roots[0];
}

function convert(node: unknown): XNode {
  const o = node as Record<string, unknown>;
  if ('#text' in o) return String(o['#text']);
  const key = Object.keys(o).find((k) => k !== ':@')!;
  const attrs = (o[':@'] ?? {}) as Record<string, string>;
  const kids = (o[key] ?? []) as unknown[];
  return { name: localName(key), attrs: Object.fromEntries(Object.entries(attrs).map(([k, v]) => [localName(k), String(v)])), children: kids.map(convert) };
}

function localName(name: string): string {
  const i = name.indexOf(':');
  return (i >= 0 ? name.slice(i + 1) : name).toLowerCase();
}

export const isElement = (n: XNode | undefined): n is XElement => typeof n === 'object' && n !== null;

export function childElements(el: XElement, name?: string): XElement[] {
  return el.children.filter((c): c is XElement => isElement(c) && (!name || c.name === name));
}

/** First element along a path of child names, e.g. child(root, 'teiheader', 'filedesc'). */
export function child(el: XElement | undefined, ...names: string[]): XElement | undefined {
  let cur = el;
  for (const n of names) {
    if (!cur) return undefined;
    cur = childElements(cur, n)[0];
  }
  return cur;
}

/** All descendants with a name, in document order. */
export function descendants(el: XElement | undefined, name: string): XElement[] {
  const out: XElement[] = [];
  const walk = (e: XElement) => {
    for (const c of e.children) {
      if (!isElement(c)) continue;
      if (c.name === name) out.push(c);
      walk(c);
    }
  };
  if (el) walk(el);
  return out;
}

/** Text content, skipping the subtrees whose element names are in `skip`. */
export function textOf(el: XElement | undefined, skip: ReadonlySet<string> = new Set()): string {
  if (!el) return '';
  let s = '';
  for (const c of el.children) {
    if (typeof c === 'string') s += c;
    else if (!skip.has(c.name)) s += textOf(c, skip);
  }
  return s;
}
