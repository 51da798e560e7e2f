import { describe, expect, it } from 'vitest';
import { analyseQuestion } from '../retrieval/question.ts';
import { asksHowMade } from './ask.ts';

describe('asksHowMade', () => {
  it('a question stating what a made material did describes one paper’s result, not a recipe asked for', () => {
    for (const q of [
      'Pd impregnated LSM-YSZ cathode 0.7 A/cm2 at 750 degC',
      'NiO-GDC anode by spray pyrolysis reaching 55 mW/cm2 at 600 C',
      'sol-gel LSCF cathode with 0.1 ohm cm2 at 700 C',
    ])
      expect(asksHowMade(analyseQuestion(q)), q).toBe(false);
  });

  it('a question asking how, or stating only the steps’ conditions, still asks for the recipe', () => {
    for (const q of [
      'How is LaCoO3 made by sol-gel?',
      'How is LSM-YSZ made by impregnation to reach 0.7 A/cm2?',
      'LaFeO3 by sol-gel, calcination temperature?',
    ])
      expect(asksHowMade(analyseQuestion(q)), q).toBe(true);
  });
});
