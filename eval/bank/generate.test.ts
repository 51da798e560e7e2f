import { describe, expect, it } from 'vitest';
import { FAMILIES, INTENTS } from './families.ts';
import { type BankSources, generateBank } from './generate.ts';

// Invented sources: two materials with a property each (one stated by two papers), and recipes by two methods.
const sources: BankSources = {
  facts: [
    { material: 'LaFeO3', materialKey: 'f:FeLaO3', property: 'band gap', paperIds: ['p1', 'p2'] },
    { material: 'BiVO4', materialKey: 'f:BiO4V', property: 'band gap', paperIds: ['p3'] },
  ],
  titles: new Map([['p1', 'A study of LaFeO3 films']]),
  recipes: [
    { target: 'LiCoO2', targetKey: 'f:CoLiO2', method: 'sol-gel', doi: null, precursorKeys: ['f:CHLiO3'] },
    { target: 'BaTiO3', targetKey: 'f:BaO3Ti', method: 'solid-state-reaction', doi: null, precursorKeys: ['f:BaCO3'] },
  ],
};

describe('the question bank', () => {
  it('has at least twelve wording families for every intent, none naming a material, a method or a property', () => {
    expect(FAMILIES.length).toBeGreaterThanOrEqual(12);
    for (const intent of INTENTS) expect(FAMILIES.filter((f) => f.templates[intent]?.length).length, intent).toBeGreaterThanOrEqual(12);
    for (const f of FAMILIES)
      for (const intent of INTENTS) {
        for (const t of f.templates[intent] ?? []) {
          // A formula ("LiCoO2"), a method or a property would be a filler written into the family.
          const text = t.text.replace(/\{\w+\}/g, '');
          expect(text, `${f.name}/${intent}`).not.toMatch(/[A-Z][a-z]?\d/);
          expect(text, `${f.name}/${intent}`).not.toMatch(/sol-gel|solid[- ]state|hydrothermal|conductivity|band gap/i);
        }
      }
  });

  it('fills every family with thirty questions of each intent, with what a right answer does', () => {
    const bank = generateBank(sources, { perFamily: 30 });
    const cells = FAMILIES.reduce((n, f) => n + INTENTS.filter((i) => f.templates[i]?.length).length, 0);
    expect(bank).toHaveLength(cells * 30);
    expect(new Set(bank.map((q) => q.id)).size).toBe(bank.length);
    for (const q of bank) expect(q.question).not.toMatch(/\{\w+\}/);
    const synthesis = bank.filter((q) => q.intent === 'synthesis');
    // Near misses: a method the records do not hold for the material, to be refused.
    const nearMisses = synthesis.filter((q) => q.expect.refuse);
    expect(nearMisses.length / synthesis.length).toBeGreaterThan(0.05);
    for (const q of nearMisses) expect(q.expect.recipe?.held).toBe(false);
    expect(synthesis.filter((q) => q.expect.recipe?.method === null).length).toBeGreaterThan(0);
    for (const q of bank.filter((x) => x.intent === 'paper-list')) expect(q.expect.paperIds).toEqual(['p1', 'p2']);
    for (const q of bank.filter((x) => x.intent === 'comparison')) expect(new Set([q.slots.material, q.slots.material2])).toEqual(new Set(['LaFeO3', 'BiVO4']));
    for (const q of bank.filter((x) => x.intent === 'out-of-scope')) expect(q.expect.refuse).toBe(true);
    // Deterministic for a seed.
    expect(generateBank(sources, { perFamily: 30 }).map((q) => q.question)).toEqual(bank.map((q) => q.question));
  });
});
