import { describe, expect, it } from 'vitest';
import { rowCells, tableRowTuples } from './table-tuples.ts';

const row = 'Cathode: Sm0.5Sr0.5CoO3; Sintering temperature: 1000 °C; ASR: 0.094 Ω cm2; Peak power density: 597 mW cm−2 at 650 °C; Note: see text.';

describe('table row tuples', () => {
  it('split a row into its cells with the value spans', () => {
    const cells = rowCells(row);
    expect(cells.map((c) => [c.header, c.value, c.conditions])).toEqual([
      ['Cathode', 'Sm0.5Sr0.5CoO3', null],
      ['Sintering temperature', '1000 °C', null],
      ['ASR', '0.094 Ω cm2', null],
      ['Peak power density', '597 mW cm−2', '650 °C'],
      ['Note', 'see text', null],
    ]);
    for (const c of cells) expect(row.slice(c.start, c.start + c.value.length)).toBe(c.value);
  });

  it('give the row material its properties with the column conditions, and its processing conditions', () => {
    const tuples = tableRowTuples(row, 'p1');
    const read = tuples.map((t) => [t.subject.surface, t.relation, t.object.key, t.value, t.unit, t.referenceRelation, t.referenceNode]);
    expect(read).toContainEqual(['Sm0.5Sr0.5CoO3', 'has_property', 'p:power-density', 597, 'mW/cm^2', 'measured_at', '650 °C']);
    expect(read).toContainEqual(['Sm0.5Sr0.5CoO3', 'processed_at', expect.stringMatching(/^v:temperature:/), 1273.15, 'K', 'during', 'Sintering']);
    const asr = tuples.find((t) => t.sentence === '0.094 Ω cm2');
    expect(asr?.relation).toBe('has_property');
    // The cell is the tuple's provenance.
    for (const t of tuples) expect(row.slice(t.start!, t.end!)).toBe(t.sentence);
    expect(tuples.every((t) => t.paragraphId === 'p1')).toBe(true);
    expect(tuples.some((t) => t.sentence === 'see text')).toBe(false);
  });

  it('say nothing of a row that names no material, or of cells that are not one quantity of their property', () => {
    expect(tableRowTuples('Sample: A; Power density: 450 mW cm−2.', 'p')).toEqual([]);
    expect(
      tableRowTuples('Compound: MgB2; Tc: 39 K; Power density: 12 K; Band gap: 1.2 eV (direct), 1.4 eV (indirect).', 'p').map((t) => t.object.key),
    ).toEqual(['p:critical-temperature']);
  });
});
