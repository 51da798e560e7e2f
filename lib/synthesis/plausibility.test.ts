import { describe, expect, it } from 'vitest';
import { highestFiringC, phaseFormingHeating, routeOfSteps, withoutImpossibleValues } from './plausibility.ts';
import { precursorKey, type Recipe, type RecipeStep, readRecipe } from './recipe.ts';
import { summariseRecipes } from './summary.ts';

const step = (kind: RecipeStep['kind'], token: string, temperatureC: number | null = null, hours: number | null = null): RecipeStep => ({
  kind,
  token,
  temperatureC,
  hours,
  atmosphere: [],
  media: [],
});
const recipe = (target: string, method: string, precursors: string[], steps: RecipeStep[]): Recipe => ({
  id: `r-${target}-${method}`,
  kind: method,
  doi: null,
  paperId: null,
  paperTitle: null,
  method,
  targets: [target],
  precursors: precursors.map((name) => ({ name, key: name })),
  steps,
});

describe('what a text-mined recipe cannot mean', () => {
  it('leaves out a ramp rate read as a temperature, a firing hotter than the compound bears, and a time no step takes', () => {
    const r = recipe(
      'LiFePO4',
      'solid-state-reaction',
      ['Li2CO3', 'FeC2O4', 'NH4H2PO4'],
      [step('heating', 'heated', 10, 5), step('heating', 'calcined', 700, 10), step('heating', 'sintered', 2250, 2), step('drying', 'dried', 80, 2000)],
    );
    const { recipe: checked, dropped } = withoutImpossibleValues(r);
    expect(dropped).toEqual(['temperature 10 °C (heated)', 'temperature 2250 °C (sintered)', 'time 2000 h (dried)']);
    expect(checked.steps.map((s) => [s.temperatureC, s.hours])).toEqual([
      [null, 5],
      [700, 10],
      [null, 2],
      [80, null],
    ]);
    // A lithium compound is not fired above 1300 °C; a zirconia is, up to the furnace's 1800 °C.
    expect(highestFiringC('LiFePO4')).toBe(1300);
    expect(highestFiringC('Y0.08Zr0.92O1.96')).toBe(1800);
    expect(withoutImpossibleValues(recipe('ZrO2', 'solid-state-reaction', [], [step('heating', 'sintered', 1550, 4)])).dropped).toEqual([]);
  });

  it('counts a "sol-gel" recipe of oxides and carbonates milled or mixed and fired, with no solution, as a solid-state reaction', () => {
    const mislabelled = recipe('BaTiO3', 'sol-gel', ['TiO2', 'BaCO3'], [step('mixing', 'milled'), step('heating', 'fired', 1075, 4)]);
    expect(routeOfSteps(mislabelled)).toBe('solid-state-reaction');
    // Only mixed, then fired: the same ("Co3O4 and Li2CO3 mixed, heated at 850 °C for 24 h in O2", labelled sol-gel).
    expect(routeOfSteps(recipe('LiCoO2', 'sol-gel', ['Co3O4', 'Li2CO3'], [step('mixing', 'mixed'), step('heating', 'heated', 850, 24)]))).toBe(
      'solid-state-reaction',
    );
    // A dissolved salt, a chelating agent or a stirred solution is a sol-gel's.
    expect(
      routeOfSteps(recipe('BaTiO3', 'sol-gel', ['Ba(NO3)2', 'Ti(OC4H9)4', 'C6H8O7'], [step('mixing', 'dissolved'), step('heating', 'calcined', 800, 2)])),
    ).toBeNull();
    expect(routeOfSteps(recipe('BaTiO3', 'sol-gel', ['TiO2', 'BaCO3'], [step('mixing', 'stirred'), step('heating', 'fired', 1075, 4)]))).toBeNull();
    // Too little to tell, or a solid-state label: left as labelled.
    expect(routeOfSteps(recipe('BaTiO3', 'sol-gel', ['TiO2', 'BaCO3'], [step('heating', 'fired', 1075, 4)]))).toBeNull();
    expect(routeOfSteps({ ...mislabelled, method: 'solid-state-reaction' })).toBeNull();
  });

  it('takes the hottest heating as the one that forms the phase, not the last', () => {
    const r = recipe('LaCoO3', 'sol-gel', [], [step('heating', 'preheated', 400, 2), step('heating', 'calcined', 900, 6), step('heating', 'annealed', 600, 1)]);
    expect(phaseFormingHeating(r)?.token).toBe('calcined');
    expect(phaseFormingHeating(recipe('X2O3', 'sol-gel', [], [step('heating', 'heated')]))).toBeNull();
  });
});

describe('a summary counts the material’s own recipes, and its variants only when it has none', () => {
  const own = recipe('LiMn2O4', 'sol-gel', ['LiNO3', 'Mn(NO3)2', 'C6H8O7'], [step('mixing', 'dissolved'), step('heating', 'calcined', 750, 10)]);
  const variant = { ...recipe('LiMn1.9Ni0.1O4', 'sol-gel', ['LiNO3', 'Ni(NO3)2'], [step('heating', 'calcined', 900, 5)]), id: 'v1' };
  it('keeps a variant out of the figures when the material has recipes of its own', () => {
    const s = summariseRecipes([own, { ...own, id: 'o2' }, variant], new Set([own.id, 'o2']));
    expect({ basis: s.basis, counted: s.counted, exact: s.exact, variants: s.variants.map((v) => v.name) }).toEqual({
      basis: 'own',
      counted: 2,
      exact: 2,
      variants: ['LiMn1.9Ni0.1O4'],
    });
    expect(s.steps[0].temperatureC).toMatchObject({ min: 750, max: 750 });
    expect(s.procedure).toMatchObject({ sharing: 2, mixing: 'dissolved', temperatureC: 750, hours: 10 });
  });
  it('uses the variants, and says so, when the material has none', () => {
    const s = summariseRecipes([variant], new Set());
    expect({ basis: s.basis, counted: s.counted, exact: s.exact }).toEqual({ basis: 'variants', counted: 1, exact: 0 });
    expect(s.steps[0].temperatureC).toMatchObject({ min: 900 });
  });
  it('counts the values it leaves out', () => {
    const s = summariseRecipes([{ ...own, steps: [...own.steps, step('heating', 'heated', 5)] }], new Set([own.id]));
    expect(s.dropped).toEqual({ values: 1, recipes: 1, examples: ['temperature 5 °C (heated)'] });
  });
});

describe('precursors as a chemist counts them', () => {
  it('are one salt whatever its water of crystallisation, shown as most recipes write it', () => {
    for (const [hydrate, salt] of [
      ['Fe(NO3)3·9H2O', 'Fe(NO3)3'],
      ['Mn(CH3COO)2 4H2O', 'Mn(CH3COO)2'],
      ['Ni(NO3)2-6H2O', 'Ni(NO3)2'],
      ['Pr(NO3)3·xH2O', 'Pr(NO3)3'],
    ])
      expect(precursorKey(hydrate), hydrate).toBe(precursorKey(salt));
    expect(precursorKey('H2O')).not.toBe(precursorKey('O'));
    const read = (id: string, precursors: string[]) =>
      readRecipe({
        id,
        kind: 'synthesis',
        doi: null,
        paperId: null,
        paperTitle: null,
        targetKeys: ['f:FeLaO3'],
        targetElements: [],
        method: 'sol-gel',
        data: { target: { material_formula: 'LaFeO3' }, precursors: precursors.map((p) => ({ material_formula: p })) },
      });
    const s = summariseRecipes(
      [read('a', ['Fe(NO3)3·9H2O', 'La(NO3)3·6H2O']), read('b', ['Fe(NO3)3·9H2O', 'La(NO3)3']), read('c', ['Fe(NO3)3', 'La(NO3)3·6H2O'])],
      new Set(['a', 'b', 'c']),
    );
    expect(s.precursors.map((p) => `${p.name} ${p.count}`)).toEqual(['Fe(NO3)3·9H2O 3', 'La(NO3)3·6H2O 3']);
  });
});

describe('the procedure a sol-gel summary opens with', () => {
  it('starts from the most common combination with something to dissolve, not oxides a few recipes only stirred', () => {
    const oxides = (id: string) => ({
      ...recipe('LiCoO2', 'sol-gel', ['Co3O4', 'Li2CO3'], [step('mixing', 'stirring'), step('heating', 'heated', 900, 3)]),
      id,
    });
    const acetates = (id: string) => ({
      ...recipe('LiCoO2', 'sol-gel', ['Co(CH3COO)2', 'LiOH'], [step('mixing', 'dissolved'), step('heating', 'calcined', 750, 10)]),
      id,
    });
    const all = [oxides('o1'), oxides('o2'), oxides('o3'), acetates('a1'), acetates('a2')];
    const s = summariseRecipes(all, new Set(all.map((r) => r.id)));
    expect(s.procedure?.precursors.map((p) => p.name)).toEqual(['Co(CH3COO)2', 'LiOH']);
    expect(s.procedure).toMatchObject({ sharing: 2, temperatureC: 750, mixing: 'dissolved' });
    // A solid-state summary keeps the most common combination.
    const solid = all.map((r) => ({ ...r, method: 'solid-state-reaction' }));
    expect(summariseRecipes(solid, new Set(solid.map((r) => r.id))).procedure?.precursors.map((p) => p.name)).toEqual(['Co3O4', 'Li2CO3']);
  });
});
