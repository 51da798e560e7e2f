/**
 * Which words are English: a Hunspell dictionary (wooorm's `dictionary-en`, read by `nspell`, which applies its
 * affix rules, so "presidents" and "wrote" are known without being listed). The spelling corrector consults it
 * before changing a word the corpus never uses: "president" is a word a person meant, not a typo of the corpus's
 * "present", and correcting it made an off-topic question look like one the library answers. A typo
 * ("supercondutivity", "tempreature") is in neither and is still corrected; a British spelling the US dictionary
 * lacks ("vapour") still meets the corpus's.
 *
 * Loaded once per process on first use (about 0.2 s and 30 MB), by the question that first needs it or by the
 * server's warm-up (lib/jobs/background.ts).
 */
export type WordCheck = (word: string) => boolean;

let loading: Promise<WordCheck> | null = null;

export function englishWords(): Promise<WordCheck> {
  loading ??= (async () => {
    const [{ default: nspell }, { default: dictionary }] = await Promise.all([import('nspell'), import('dictionary-en')]);
    const checker = nspell(Buffer.from(dictionary.aff), Buffer.from(dictionary.dic));
    return (word: string) => checker.correct(word);
  })();
  return loading;
}
