import { describe, expect, it } from 'vitest';
import { findTechniques } from './techniques.ts';

describe('preparation techniques', () => {
  it('are found however the hyphen of their name is typed', () => {
    for (const t of ['sol-gel', 'sol–gel', 'sol gel', 'sol/gel', 'solgel', 'Sol-Gel']) expect(findTechniques(`made by the ${t} route`), t).toEqual(['sol-gel']);
    for (const t of ['co-precipitation', 'coprecipitation', 'co precipitation', 'co-precipitated'])
      expect(findTechniques(`obtained by ${t}`), t).toEqual(['co-precipitation']);
    // Not inside other words.
    expect(findTechniques('the solution gelled overnight; a console gelatin')).toEqual([]);
  });
});
