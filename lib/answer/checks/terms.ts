import { plainTerms } from '../../structure/terms.ts';
import { defineCheck } from './types.ts';

// Words every answer sentence uses and no evidence needs to contain.
const FRAME = new Set(
  plainTerms(
    'the paper that reports this states state report reports reported value values is are was were at in of for by with and from its their this these those other papers also same corpus citing them ' +
      // the words of the answers' own frames (design and reasoning sentences), which no evidence states
      'reaches meeting short target route step analogue analogy sim extrapolate caution diverge expected about interquartile then tier direct evidence ' +
      // and of the synthesis answer's summary lines (a count, a median, a range over the recipes it cites)
      'records hold recipe recipes usual common most order operations median half all them time temperature atmosphere earlier final another typical variants itself such ' +
      // and of its procedure and phase lines (what the recipes share, said as a chemist would)
      'procedure use uses exactly precursors start fire firing forms phase counted below left impossible',
  ),
);

/**
 * A word in brackets is the word ("(calcined)"), as the analyzer reads it ("calcin"); a formula's own brackets
 * ("Mn(NO3)2") stay.
 */
const unbracketed = (w: string): string => (/^[([].*[)\]]$/.test(w) && !/[([].*[([]/.test(w) ? (plainTerms(w.slice(1, -1))[0] ?? w.slice(1, -1)) : w);

/** The share of the sentence's content words (not its frame's, not numbers) that what it cites contains. */
export const termCheck = defineCheck({
  field: 'termOverlap',
  run(sentence, citedTexts) {
    const words = [...new Set(plainTerms(sentence).map(unbracketed))].filter((w) => w.length > 2 && !FRAME.has(w) && !/^\d/.test(w));
    const cited = new Set(citedTexts.flatMap((t) => plainTerms(t).map(unbracketed)));
    return words.length ? words.filter((w) => cited.has(w)).length / words.length : 1;
  },
});
