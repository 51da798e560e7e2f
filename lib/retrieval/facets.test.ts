import { describe, expect, it } from 'vitest';
import { parseQuantities } from '../structure/quantities.ts';
import { quantityFacet, quantityMatch } from './facets.ts';
import { analyseQuestion } from './question.ts';

/** The paper's stated values as facets, and the question's first value as the question reads it. */
const stated = (text: string) => parseQuantities(text).map(quantityFacet);
const asked = (question: string) => analyseQuestion(question).quantities[0];
const matches = (paper: string, question: string) => quantityMatch(stated(paper), asked(question));

describe('a question value against the values a paper states', () => {
  it('matches in another unit scale and in the other temperature scale', () => {
    expect(matches('a peak power density of 560 mW cm−2', 'Which paper reports 0.56 W/cm2?')).toBe(1);
    expect(matches('a conductivity of 0.1 S cm−1', 'Which paper reports 100 mS/cm?')).toBe(1);
    expect(matches('a conductivity of 9.74 × 10−4 S cm−1', 'Which paper reports 0.974 mS/cm?')).toBe(1);
    expect(matches('measured at 550 °C', 'Which paper measured at 823 K?')).toBe(1);
  });

  it('matches a value rounded to the precision the question writes', () => {
    expect(matches('Tc = 13.2 K', 'Which paper reports a Tc of 13 K?')).toBe(1);
    expect(matches('864 mW cm−2', 'Which paper reports 860 mW/cm2?')).toBe(1);
    expect(matches('0.372 W cm−2', 'Which paper reports 0.37 W/cm2?')).toBe(1);
    // Written with more digits, the value must agree to them.
    expect(matches('Tc = 13.2 K', 'Which paper reports a Tc of 13.5 K?')).toBe(0);
  });

  it('widens the tolerance for a value given approximately, in any of the usual words', () => {
    for (const word of ['about', 'roughly', '~', 'nearly', 'just over', 'in the region of'])
      expect(matches('a power density of 0.93 W cm−2', `Which paper reports ${word} 1 W/cm2?`), word).toBe(1);
    expect(matches('a power density of 0.93 W cm−2', 'Which paper reports 1.00 W/cm2?')).toBe(0);
  });

  it('does not match a value beyond its tolerance, approximate or not', () => {
    expect(matches('a peak power density of 560 mW cm−2', 'Which paper reports 1900 mW/cm2?')).toBe(0);
    expect(matches('a peak power density of 560 mW cm−2', 'Which paper reports about 1700 mW/cm2?')).toBe(0);
    expect(matches('Tc = 39 K', 'Which paper reports a Tc of about 117 K?')).toBe(0);
    // A temperature's whole degrees are exact: 500 °C is not 550 °C, and "about" widens it to 25 K at most.
    expect(matches('sintered at 550 °C', 'Which paper sintered at 500 °C?')).toBe(0);
    expect(matches('sintered at 550 °C', 'Which paper sintered at about 500 °C?')).toBe(0);
    expect(matches('sintered at 520 °C', 'Which paper sintered at about 500 °C?')).toBe(1);
  });
});
