import { describe, expect, it } from 'vitest';
import { orderedId } from './ordered-id.ts';

describe('orderedId', () => {
  it('sorts in the order the ids were made, within a millisecond too, and never repeats', () => {
    const ids = Array.from({ length: 5000 }, () => orderedId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('is a UUID (the id columns are text, and PostgreSQL tools read it as one)', () => {
    expect(orderedId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
