import { describe, expect, it } from 'vitest';
import { parseQuantities } from '../../structure/quantities.ts';
import { stepGrounding, stepsNamed } from './step-grounding.ts';

const sentence = (text: string) => ({ text, quantities: parseQuantities(text) });

describe('the step a value is a value of', () => {
  const paragraph = [
    sentence('The powder was dispersed in water with sonication for 1 h.'),
    sentence('The precursor was washed and dried at 120 °C for 12 h, and then calcined at 700 °C for 5 h.'),
  ];

  it('grounds a value the cited sentence states of the asked step', () => {
    expect(stepGrounding('drying time of the precursor', 'time', parseQuantities('12 h'), paragraph)).toEqual({ asked: ['drying'], grounded: true });
    expect(stepGrounding('how long was it calcined', 'time', parseQuantities('5 h'), paragraph).grounded).toBe(true);
  });

  it('does not ground a value of another step, though the sentence names the asked one', () => {
    expect(stepGrounding('how long was it dried', 'time', parseQuantities('1 h'), paragraph).grounded).toBe(false);
    expect(stepGrounding('calcination time', 'time', parseQuantities('12 h'), paragraph).grounded).toBe(false);
  });

  it('takes any heating step for "heated", and "heated" for any heating step asked', () => {
    expect(stepGrounding('how long was it heated', 'time', parseQuantities('5 h'), paragraph).grounded).toBe(true);
    const heated = [sentence('The autoclave was heated at 140 °C for 12 h.')];
    expect(stepGrounding('hydrothermal synthesis temperature', 'temperature', parseQuantities('140 °C'), heated).grounded).toBe(true);
  });

  it('has nothing to check when the question names no step or the answer no value of the asked dimension', () => {
    expect(stepGrounding('What is the Tc of MgB2?', 'temperature', parseQuantities('39 K'), paragraph).grounded).toBeNull();
    expect(stepGrounding('drying time', 'time', parseQuantities('120 °C'), paragraph).grounded).toBeNull();
    expect(stepGrounding('drying time', 'time', parseQuantities('3 h'), paragraph).grounded).toBeNull();
  });

  it('finds every step a text names, in order', () => {
    expect(stepsNamed('stirred, dried and then calcined').map((s) => s.step)).toEqual(['stirring', 'drying', 'calcination']);
  });
});
