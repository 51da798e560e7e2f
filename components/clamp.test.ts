import { describe, expect, it } from 'vitest';
import { clampWindow } from './clamp.ts';

describe('clampWindow', () => {
  it('keeps a short paragraph whole', () => {
    expect(clampWindow(400, { start: 100, end: 200 })).toEqual({ from: 0, to: 400, clamped: false });
    expect(clampWindow(500)).toEqual({ from: 0, to: 500, clamped: false });
  });
  it('shows the marked sentence of a long paragraph with context either side, wherever it is', () => {
    expect(clampWindow(5000, { start: 2000, end: 2100 })).toEqual({ from: 1700, to: 2400, clamped: true });
    expect(clampWindow(5000, { start: 4900, end: 5000 })).toEqual({ from: 4600, to: 5000, clamped: true });
    expect(clampWindow(5000)).toEqual({ from: 0, to: 600, clamped: true });
  });
});
