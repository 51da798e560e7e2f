import { describe, expect, it } from 'vitest';
import { roleTuples } from './role-tuples.ts';

const pairs = (text: string) => roleTuples(text, 'p1').map((t) => `${t.subject.surface} → ${t.object.surface}`);

describe('roleTuples', () => {
  it('reads what a material serves as, in each way papers write it', () => {
    expect(pairs('The cell was built using TiO2 as a photoanode and platinum as a cathode.')).toEqual(['TiO2 → photoanode', 'platinum → cathode']);
    expect(pairs('Noble metals such as Pt and Ir are costly; cheaper catalysts, such as NiMo, CoP and Ni2P, were tested.')).toEqual(
      expect.arrayContaining(['NiMo → catalyst', 'CoP → catalyst', 'Ni2P → catalyst']),
    );
    expect(pairs('The load curves of WO3 (cathode) with Ni foam (anode) are shown.')).toEqual(['WO3 → cathode', 'Ni → anode']);
    expect(pairs('The electrolyte was 0.5 M H2SO4 and was purged with argon.')).toEqual(['H2SO4 → electrolyte']);
    expect(pairs('A voltage was applied between two gold electrodes immersed in water.')).toEqual(['gold → electrode']);
    expect(pairs('NaBH4 was used as the reducing agent.')).toEqual(['NaBH4 → reducing agent']);
  });

  it('takes no phrase that is not a material, no mixture, and no role of a synthesis', () => {
    expect(pairs('The sample as a reference was kept in air.')).toEqual([]);
    expect(pairs('After spin-coating, the substrate is cleaned with methanol.')).toEqual([]);
    expect(pairs('The powder was mixed with a PVA aqueous solution binder.')).toEqual([]);
    expect(pairs('Ni(NO3)2·6H2O was used as the nickel precursor and ethanol as the solvent.')).toEqual([]);
    expect(pairs('This is as good as expected, as well as stable.')).toEqual([]);
  });

  it('gives each tuple its sentence and offsets', () => {
    const text = 'Films were grown. Pt served as the counter electrode.';
    const [t] = roleTuples(text, 'p1');
    expect(t).toMatchObject({ relation: 'used_as', paragraphId: 'p1', sentence: 'Pt served as the counter electrode.' });
    expect(text.slice(t.start!, t.end!)).toContain('Pt served as the counter electrode');
    expect(t.object.key).toBe('n:counterelectrode');
  });
});
