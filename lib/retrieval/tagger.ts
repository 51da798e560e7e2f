import { requireFromRoot } from '../common/root-require.ts';

type Compromise = typeof import('compromise').default;

/**
 * compromise (part-of-speech tags for questions), required on first use: importing it unpacks its lexicon, a quarter
 * to half a second of CPU that a restart's server thread does not need while its retrieval workers answer (each
 * worker loads it before it says it is ready).
 */
export function tagger(): Compromise {
  return requireFromRoot<Compromise>('compromise');
}
