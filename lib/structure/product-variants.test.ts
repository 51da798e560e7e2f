import { describe, expect, it } from 'vitest';
import { productVariants } from './product-variants.ts';

const cuts = (text: string, name: string) => productVariants(text, name, text.indexOf(name)).map((v) => `${v.kind}:${v.text}`);

describe('product variants', () => {
  it('cuts a name longer with its support, class noun, given name, oxygen deficiency, dopant or phase', () => {
    expect(cuts('For the synthesis of Co3O4 nanowires/carbon cloth, 4 mmol of salt was used.', 'Co3O4')).toEqual(['head-support:Co3O4 nanowires/carbon cloth']);
    expect(cuts('Mn3O4 self-supported on Ni foam was grown.', 'Mn3O4')).toEqual(['support:Mn3O4 self-supported on Ni foam']);
    expect(cuts('The Ni–Co oxide hexagonal nanoplates were assembled.', 'Ni–Co')).toEqual(['head:Ni–Co oxide hexagonal nanoplates']);
    expect(cuts('Zirconium-based MOF termed UiO-66 was made.', 'Zirconium-based MOF')).toEqual(['termed:Zirconium-based MOF termed UiO-66']);
    expect(cuts('The porous La0.6Sr0.4CoO3−δ powder was obtained.', 'La0.6Sr0.4CoO3')).toEqual(['delta:La0.6Sr0.4CoO3−δ']);
    expect(cuts('the final product of Co/Cu-modified NiO film', 'NiO')).toEqual(['head:NiO film', 'modifier:Co/Cu-modified NiO']);
    expect(cuts('for synthesizing β-Fe2O3 nanorods', 'Fe2O3')).toEqual(['phase:β-Fe2O3']);
  });

  it('cuts a name shorter by its form abbreviation or sample label', () => {
    expect(cuts('The CoMn LDH was grown.', 'CoMn LDH')).toEqual(['strip-morphology:CoMn']);
    expect(cuts('The sample named HEA700 was annealed.', 'HEA700')).toEqual(['strip-label:HEA']);
    expect(cuts('The film ZnO(2) was annealed.', 'ZnO(2)')).toEqual(['strip-label:ZnO']);
  });

  it('does not name a formula with its form alone, nor give the same cut twice', () => {
    expect(cuts('Fe2O3 hollow nanotubes were obtained.', 'Fe2O3')).toEqual([]);
    expect(cuts('NiFe2O4 was obtained.', 'NiFe2O4')).toEqual([]);
  });
});
