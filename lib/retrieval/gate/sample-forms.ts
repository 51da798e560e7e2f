import type { RetrievalIndex } from '../index.ts';

/**
 * The form a sample takes — a single crystal, a thin film, a powder, nanowires — is a condition of what was measured:
 * the Tc of CeOBiS2 single crystals is not that of its thin films. A question naming one is met by a paper that
 * names it anywhere, contradicted by one whose title names another form and whose text never names this one, and
 * left unverified otherwise.
 */
const FORMS: { name: string; pattern: RegExp }[] = [
  { name: 'single crystals', pattern: /\bsingle[- ]crystal(?:s|line)?\b/i },
  { name: 'thin films', pattern: /\b(?:thin|epitaxial|ultrathin)?[- ]?films?\b/i },
  { name: 'polycrystalline samples', pattern: /\bpolycrystal(?:s|line)\b/i },
  { name: 'powders', pattern: /\bpowders?\b/i },
  { name: 'nanoparticles', pattern: /\bnano-?particles?\b|\bNPs\b/ },
  { name: 'nanowires', pattern: /\bnano-?wires?\b/i },
  { name: 'nanotubes', pattern: /\bnano-?tubes?\b/i },
  { name: 'nanosheets', pattern: /\bnano-?sheets?\b/i },
  { name: 'nanofibers', pattern: /\bnano-?fib(?:er|re)s?\b/i },
];

export interface FormVerdict {
  /** The form as the question names it. */
  asked: string;
  status: 'stated' | 'contradicted' | 'unverified';
  /** The form the paper names instead, for a contradiction. */
  stated: string | null;
}

/** The one sample form a text names, or null (none, or several: "films and powders" asks of neither alone). */
export function sampleForm(text: string): { name: string; written: string } | null {
  const found = FORMS.map((f) => ({ name: f.name, m: f.pattern.exec(text) })).filter((f) => f.m);
  return found.length === 1 ? { name: found[0].name, written: found[0].m![0].trim() } : null;
}

/** The question's sample form against a paper (its title first: what the paper is about). */
export function judgeSampleForm(index: RetrievalIndex, question: string, paperId: string): FormVerdict | null {
  const asked = sampleForm(question);
  const paper = index.papers.get(paperId);
  if (!asked || !paper) return null;
  const pattern = FORMS.find((f) => f.name === asked.name)!.pattern;
  const texts = [paper.title ?? '', ...paper.paragraphIds.map((id) => index.paragraphs.get(id)?.text ?? '')];
  if (texts.some((t) => pattern.test(t))) return { asked: asked.written, status: 'stated', stated: null };
  // Only the title says what the paper is about: a form its text mentions in passing (the powder a film was made
  // from) is no contradiction, and leaves the asked form unverified.
  const instead = FORMS.find((f) => f.name !== asked.name && f.pattern.test(paper.title ?? ''));
  return instead ? { asked: asked.written, status: 'contradicted', stated: instead.name } : { asked: asked.written, status: 'unverified', stated: null };
}
