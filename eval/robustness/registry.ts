import { acronym } from './transforms/acronym.ts';
import { approximate } from './transforms/approximate.ts';
import { caseSpacing } from './transforms/case-spacing.ts';
import { conditionChanged } from './transforms/condition-changed.ts';
import { descriptorSuffix } from './transforms/descriptor-suffix.ts';
import { dopantPhrase } from './transforms/dopant-phrase.ts';
import { dopantSwapped } from './transforms/dopant-swapped.ts';
import { elementName } from './transforms/element-name.ts';
import { hostSwapped } from './transforms/host-swapped.ts';
import { hydrateNotation } from './transforms/hydrate-notation.ts';
import { nonstoichiometryLetter } from './transforms/nonstoichiometry-letter.ts';
import { oxygenNonstoichiometry } from './transforms/oxygen-nonstoichiometry.ts';
import { rounded } from './transforms/rounded.ts';
import { stoichiometryLetters } from './transforms/stoichiometry-letters.ts';
import { temperatureScale } from './transforms/temperature-scale.ts';
import { typo } from './transforms/typo.ts';
import { unitScale } from './transforms/unit-scale.ts';
import { valueMoved } from './transforms/value-moved.ts';
import { wordOrder } from './transforms/word-order.ts';
import type { Transform } from './types.ts';

/** Every transform of the suite: one file each under transforms/, meaning-keeping ones first. */
export const TRANSFORMS: readonly Transform[] = [
  unitScale,
  temperatureScale,
  approximate,
  rounded,
  hydrateNotation,
  stoichiometryLetters,
  oxygenNonstoichiometry,
  nonstoichiometryLetter,
  dopantPhrase,
  acronym,
  descriptorSuffix,
  elementName,
  caseSpacing,
  typo,
  wordOrder,
  valueMoved,
  conditionChanged,
  dopantSwapped,
  hostSwapped,
];

export const transformNamed = (name: string): Transform | undefined => TRANSFORMS.find((t) => t.name === name);
