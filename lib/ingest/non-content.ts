/**
 * Paragraphs that are not the paper's content: front matter (author lists, affiliations, e-mail addresses, ORCID
 * links, editors, received/accepted dates, copyright and licence lines, a title repeated with the authors run
 * together) and back matter (acknowledgements, funding, conflicts of interest, author contributions, ORCID lists,
 * data availability, references). They are kept verbatim and shown on the paper page, but never indexed as
 * evidence: a quoted e-mail address is not an answer. Detected at import (`finishPaper`), from the section
 * heading when there is one, else from the paragraph's own signals.
 */

export type NonContentKind = 'front-matter' | 'back-matter';

/** The kinds of paragraph that are never evidence (stored and shown, not indexed or read for the graph). */
export const NON_CONTENT_KINDS: readonly string[] = ['front-matter', 'back-matter'];

/**
 * Headings of back-matter sections, the whole heading ("Acknowledgements", "Conflicts of interest:", "5.
 * Acknowledgments", "■ ASSOCIATED CONTENT / ■ AUTHOR INFORMATION"; not "Reference models").
 */
const BACK_MATTER_HEADING =
  /^(?:[\s■•\d.ivx]*(?:acknowledg(?:e)?ments?|funding(?: sources| information)?|financial support|conflicts? of interests?|competing (?:financial )?interests?|declaration of (?:competing interest|interests)|author(?:s'?|’s)? contributions?|credit author(?:ship)? contribution statement|orcid(?: ids?| i ds)?|author information|associated content|data availability(?: statement)?|references?|bibliography|notes and references|abbreviations|informed consent statement|institutional review board statement)[\s:.]*(?:\/|$))+/i;

const SIGNALS: [string, RegExp][] = [
  ['email', /[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}/],
  ['orcid', /orcid\.org|\bORCID\b/],
  [
    'affiliation',
    /(?<![A-Za-z])(?:Department|Dept\.|Institute|Faculty|School|College|Laboratory|Centre|Center) (?:of|for)\b[^.]{0,120}\b(?:University|Universit[éä]t?|Academy|Institute of Technology|Polytechnic)\b|\bUniversity of [A-Z][a-z]+[^.]{0,60}\b\d{4,6}\b/,
  ],
  ['dates', /\bReceived\b[^.]{0,40}\d{4}[^.]{0,80}\b(?:Accepted|Revised|Published)\b/i],
  ['correspondence', /\bCorresponding authors?\b|\*\s*E-?mail\b|\bE-?mail(?: address(?:es)?)?\s*:/i],
  ['editor', /\b(?:Academic|Guest) Editors?\b|\bEdited by\b/],
  // A list of three or more names near the start ("Shengchu Liu, Shang Li, z Ruyi Wang, Yan Rao, …").
  ['author-list', /^.{0,80}?(?:\p{Lu}\p{Ll}+(?: \p{Lu}[\p{L}.'-]*){1,2}[\d*†‡§]*,\s+(?:and\s+)?){3,}/u],
  ['licence', /©|\bCopyright\b|\bopen access article\b|\bCreative Commons\b|\bPublished by\b/i],
  // Names run together with their affiliation marks, as PDF-to-text leaves an author line: "FaesAntonin1*Hessler-WyserAïcha2",
  // "JiSanghoon1ChangIkwhang1LeeYoon Ho2", "Laguna-BerceroMiguel A.a2SandhuNavjot Kaur1".
  ['name-run', /(?:\p{Lu}[\p{L}'-]*\p{Ll}\p{Lu}[\p{Ll}'-]+(?:[ .]+\p{Lu}[\p{Ll}'-]*\.?)*[a-e]?[\d*,†‡§]+){2,}/u],
];

/** Each signal with a global copy for finding all its matches: [name, global, first-match]. */
const GLOBAL_SIGNALS: [string, RegExp, RegExp][] = SIGNALS.map(([name, re]) => [name, new RegExp(re.source, `${re.flags}g`), re]);

/** Which front-matter signals a paragraph carries. */
export function frontMatterSignals(text: string): string[] {
  return SIGNALS.filter(([, re]) => re.test(text)).map(([name]) => name);
}

/** Longest paragraph read for front matter (the shared corpus's author blocks run to about 1,200 characters). */
const FRONT_MATTER_MAX_CHARS = 4000;

/**
 * Whether a text holds a sentence of prose: a full stop after at least eight lower-case words (a title has no full
 * stop, an author or affiliation line has few lower-case words).
 */
const hasProse = (text: string) =>
  text.split(/(?<=\.)\s+/).some((sentence) => /\.$/.test(sentence.trim()) && (sentence.match(/(?:^|\s)[a-z]{3,}[,;:]?(?=\s|$|\.)/g) ?? []).length >= 8);

/**
 * A reference entry's volume, pages and year as journals print them: "Thin Solid Films 534, 286–290 (2013)",
 * "J. Power Sources 195 (2010) 1234", "Nature 2019, 571, 231".
 */
const CITATION =
  /\b\d{1,4},\s*\d{1,6}(?:\s*[–-]\s*\d{1,6})?\s*\((?:19|20)\d{2}\)|\b\d{1,4}\s*\((?:19|20)\d{2}\)\s*,?\s*\d{1,6}\b|\b(?:19|20)\d{2},\s*\d{1,4},\s*\d{1,6}\b/g;

/** A journal's "How to cite this article: …" or "Cite this: …" line, which states the paper's own reference. */
const CITE_THIS = /^\s*(?:How to cite this (?:article|paper)|Cite this(?: article)?)\s*:/i;

/**
 * Whether a paragraph is a run of reference entries (a reference list under a heading the corpus did not keep, such
 * as "Additional Information"): three or more entries, at least one per 250 characters. A results paragraph citing
 * its sources by number or by (Author, year) has none of them.
 */
export function isReferenceList(text: string): boolean {
  const n = text.match(CITATION)?.length ?? 0;
  return n >= 3 && n >= text.length / 250;
}

/**
 * Whether a paragraph is front or back matter. A back-matter heading decides. Otherwise it takes two distinct
 * signals (one alone is content often enough: "reproduced with permission, Copyright © 2013" under a figure, a
 * furnace "at the University of Oxford", a footnote "* E-mail" after a paragraph of results), and neither the
 * text before the first signal nor the text after the last may hold a sentence of prose: a title, author block and
 * abstract run together into one paragraph (as some corpora store a paper's first paragraph) stays content, since its
 * abstract answers questions.
 */
export function nonContentKind(text: string, section: string | null): NonContentKind | null {
  if (section && BACK_MATTER_HEADING.test(section.trim().slice(0, 300))) return 'back-matter';
  if (isReferenceList(text) || CITE_THIS.test(text)) return 'back-matter';
  // An author block is short; a paragraph this long is prose whatever it mentions (and the signals stay cheap).
  if (text.length > FRONT_MATTER_MAX_CHARS) return null;
  const found = SIGNALS.flatMap(([, re]) => {
    const m = re.exec(text);
    return m ? [{ start: m.index, end: m.index + m[0].length }] : [];
  });
  if (found.length < 2) return null;
  const before = text.slice(0, Math.min(...found.map((f) => f.start)));
  const after = text.slice(Math.max(...found.map((f) => f.end)));
  return hasProse(before) || hasProse(after) ? null : 'front-matter';
}

/** Longest front part read in a paragraph that goes on into prose (title, author block and affiliations). */
const FRONT_PART_MAX_CHARS = 3000;

/**
 * Where a run of prose starts: a word, then five lower-case ones or bracketed abbreviations ("Tubular solid oxide
 * fuel cells were", "Ceramic nanofibers (NFs) have recently"), and the plain words just before it ("In this study,
 * Zr0.92Y0.08O2-α powders were …"), back to a number, an address or an e-mail.
 */
const PROSE_RUN = /[A-Z0-9(][^\s]*(?:\s+(?:[a-z][^\s@]*(?!\S)|\([^\s().@]+\)[,;]?)){5}/g;
const WORDS_BEFORE = /(?:(?<=\s)(?:[A-Z]?[a-z]+[,;]?|[a-z]+-[A-Za-z]+|[A-Z][A-Z0-9]{1,5})\s+){1,8}$/;

/**
 * Where the content starts in a paragraph that opens with front matter and goes on into prose: the title, author
 * block and abstract run together into one paragraph, as some corpora store a paper's first paragraph ("…
 * deposition JiSanghoon1ChangIkwhang1… 1Graduate School of …, Seoul National University, … South Korea Anode
 * aluminum oxide-supported thin-film fuel cells …"). The front matter is a run of signals (names, affiliations,
 * addresses, e-mails, telephone numbers between them) of two kinds at least, with no prose before it; the content
 * starts at the first run of prose after its last signal. 0 when the paragraph does not open with front matter.
 */
export function frontMatterEnd(text: string): number {
  const window = text.slice(0, FRONT_PART_MAX_CHARS);
  // Most paragraphs carry no signal or one: two kinds are needed, so only those are searched through.
  const present = GLOBAL_SIGNALS.filter(([, , re]) => re.test(window));
  if (present.length < 2) return 0;
  const found = present
    .flatMap(([name, all]) => [...window.matchAll(all)].map((m) => ({ name, start: m.index, end: m.index + m[0].length })))
    .sort((x, y) => x.start - y.start);
  if (found.length < 2 || hasProse(text.slice(0, found[0].start))) return 0;
  const names = new Set<string>();
  let contentStart = -1;
  for (const f of found) {
    // A signal close after the run, in the same sentence, makes that run a phrase of the front matter ("Author to
    // whom correspondence should be addressed; Email: …").
    if (contentStart >= 0 && f.start >= contentStart && (f.start - contentStart > 100 || /\.\s/.test(window.slice(contentStart, f.start)))) break;
    names.add(f.name);
    PROSE_RUN.lastIndex = f.end;
    contentStart = PROSE_RUN.exec(window)?.index ?? window.length;
  }
  if (names.size < 2 || contentStart >= window.length || !hasProse(text.slice(contentStart))) return 0;
  const last = found.filter((f) => f.start < contentStart).at(-1)?.end ?? 0;
  const before = WORDS_BEFORE.exec(window.slice(last, contentStart));
  return before ? last + before.index : contentStart;
}

/**
 * A paragraph's text as evidence: the front matter it opens with blanked with spaces, so the index, the quotes and
 * the graph read only the content while every offset stays that of the stored, verbatim paragraph.
 */
export function evidenceText(text: string): string {
  const end = frontMatterEnd(text);
  return end === 0 ? text : ' '.repeat(end) + text.slice(end);
}

/**
 * Whether a stored paragraph may be evidence: not marked non-content at import, nor non-content by the rules as
 * they are now (so a database imported before a rule changed is read by today's rules).
 */
export const isEvidenceParagraph = (p: { kind: string; text: string; section: string | null }): boolean =>
  !NON_CONTENT_KINDS.includes(p.kind) && nonContentKind(p.text, p.section) === null;

/** Text of the rules, for the graph extractor's version stamp: a change re-reads every paper. */
export const nonContentRulesSource = (): string =>
  [
    BACK_MATTER_HEADING.source,
    ...SIGNALS.map(([n, re]) => `${n}:${re.source}`),
    hasProse.toString(),
    nonContentKind.toString(),
    PROSE_RUN.source,
    WORDS_BEFORE.source,
    frontMatterEnd.toString(),
  ].join('\n');
