import { describe, expect, it } from 'vitest';
import { clauseTuples } from './clause-tuples.ts';

// Invented sentences in the style of the literature (no corpus text).
const brief = (text: string) =>
  clauseTuples(text, 'p1').map((t) => ({
    s: t.subject.key,
    r: t.relation,
    o: t.object.key,
    ...(t.value !== null ? { v: t.value, unit: t.unit } : {}),
    ...(t.referenceNode ? { ref: `${t.referenceRelation} ${t.referenceNode}` } : {}),
  }));

describe('clauseTuples', () => {
  it('types a property claim with its value and condition, from a finite verb', () => {
    const out = brief('The NiO-BZY cell shows a peak power density of 412 mW cm−2 at 600 °C.');
    expect(out).toContainEqual(expect.objectContaining({ r: 'has_property', o: 'p:power-density', v: 412, unit: 'mW/cm^2', ref: 'measured_at 600 °C' }));
  });

  it('reads a value in parentheses and names its owner after "for"', () => {
    const out = brief('A remarkably low resistance (3.1 Ω cm2) at 650 °C was found for La2NiO4 electrodes.');
    expect(out).toContainEqual(expect.objectContaining({ s: 'f:La2NiO4', r: 'has_property', o: 'p:area-resistance', v: 3.1 }));
  });

  it('keeps a verb phrase as the relation when no type fits, and types synthesis and processing verbs', () => {
    const out = brief('The thin film was deposited on YSZ by pulsed laser deposition. The powder was calcined at 900 °C for 5 h.');
    expect(out).toContainEqual(expect.objectContaining({ r: 'grown_on', o: 'm:YSZ' }));
    expect(out.some((t) => t.r === 'processed_at' && t.v === 1173.15)).toBe(true);
    const verb = brief('The CoP nanowires exhibit excellent stability in alkaline media.');
    expect(verb).toContainEqual(expect.objectContaining({ r: 'exhibit' }));
  });

  it('does not make nouns into verbs, figure pointers into entities, or causal claims out of generic verbs', () => {
    expect(brief('Fatigue tests due to cyclic loading are shown in Figure 3.')).toEqual([]);
    expect(brief('Figure 4 shows the XRD patterns.')).toEqual([]);
    expect(brief('Higher Sr content increases the conductivity.').filter((t) => t.r.startsWith('increase'))).toEqual([]);
  });

  it('gives a value without an owner to no property: a property has no property', () => {
    expect(brief('The power density was 450 mW cm−2.').filter((t) => t.s.startsWith('p:'))).toEqual([]);
  });

  it('keeps sentence provenance with offsets into the paragraph', () => {
    const text = 'We studied oxides. The BZY electrolyte exhibits a conductivity of 0.01 S/cm at 600 °C.';
    const [t] = clauseTuples(text, 'p9').filter((x) => x.relation === 'has_property');
    expect(t.paragraphId).toBe('p9');
    expect(text.slice(t.start!, t.end!)).toBe(t.sentence);
  });

  it('takes an abbreviation as the owner, but not the atmosphere, a technique or a unit', () => {
    const out = brief('At 700 °C, the layered XKFM showed an electrical conductivity of 41.5 S cm−1 in 5% H2 measured by EIS.');
    expect(out).toContainEqual(expect.objectContaining({ s: 'n:xkfm', o: 'p:conductivity', v: 41.5 }));
    expect(out.some((t) => ['f:H2', 'n:eis'].includes(t.s))).toBe(false);
    const unit = brief('At 2.1 GPa the superconducting transition moved to 7.7 K.');
    expect(unit.some((t) => t.s === 'n:gpa')).toBe(false);
  });

  it('gives a sentence without an owner the material the paragraph was last about', () => {
    const out = brief('Single crystals of RbW2O7 were grown from a flux. They become superconducting at T c = 5.4 K and 3.1 K under pressure.');
    expect(out.filter((t) => t.o === 'p:critical-temperature').map((t) => [t.s, t.v])).toEqual([
      ['f:O7RbW2', 5.4],
      ['f:O7RbW2', 3.1],
    ]);
    // A new paragraph starts with no owner.
    expect(brief('They become superconducting at T c = 5.4 K.')).toEqual([]);
  });

  it('names a property the lexicon lacks by the noun linked to its value, preferring it to a farther lexicon one', () => {
    const out = brief('The NbTiQ contact layer has a pore size of ~300 nm and a surface roughness (RMS) of 21 nm.');
    expect(out).toContainEqual(expect.objectContaining({ s: 'n:nbtiq', o: 'p:size', v: 300 }));
    expect(out).toContainEqual(expect.objectContaining({ s: 'n:nbtiq', o: 'n:surfaceroughness', v: 21 }));
    // A temperature with no property is a condition, not a claim of its own.
    expect(brief('The NbTiQ film stays stable in air up to 300 K.').some((t) => t.r === 'has_property')).toBe(false);
  });

  it('reads words split at a line break as one word', () => {
    const out = brief('All the Sr3Ru2O8 crystals showed a superconduct- ing transition at around 11 K.');
    expect(out).toContainEqual(expect.objectContaining({ o: 'p:critical-temperature', v: 11 }));
  });

  it('gives each listed material its own tuple, on either side of the verb', () => {
    const made = brief('Phase-pure BaZrO3 was prepared from highly pure BaCO3, ZrO2, and Y2O3 powders (99.9%, Alfa) by a solid-state route.');
    expect(made.filter((t) => t.r === 'synthesized_from').map((t) => t.o)).toEqual(['f:CBaO3', 'f:O2Zr', 'f:O3Y2']);
    const dissolved = brief('CoCl2, NiCl2 and urea were dissolved in deionized water.');
    expect(dissolved.filter((t) => t.r === 'dissolve_in').map((t) => t.s)).toEqual(expect.arrayContaining(['f:Cl2Co', 'f:Cl2Ni']));
    // A list that turns into ordinary words stops where the materials stop.
    const mixed = brief('The BaZrO3 powder was mixed with ZrO2 and a small amount of binder.');
    expect(mixed.map((t) => t.o)).not.toContain('n:smallamountofbinder');
  });

  it('reads "a solution of X" and "2 g of X" as X, and a lower-case modifier before a formula as the formula', () => {
    const added = brief('Then, an aqueous solution of NaBH4 (0.1 M, 5 mL) was added into the mixture.');
    expect(added).toContainEqual(expect.objectContaining({ s: 'f:H4BNa', r: 'add_into' }));
    const dispersed = brief('The catalyst was dispersed in 20 mL of ethanol.');
    expect(dispersed.map((t) => t.o)).toContain('f:C2H6O');
    const pure = brief('Polycrystalline SrTiO3 was sintered at 1400 °C for 10 h.');
    expect(pure).toContainEqual(expect.objectContaining({ s: 'n:polycrystallinesrtio3', r: 'processed_at' }));
    const lower = brief('The polycrystalline SrTiO3 was sintered at 1400 °C for 10 h.');
    expect(lower).toContainEqual(expect.objectContaining({ s: 'f:O3SrTi', r: 'processed_at' }));
  });

  it('reads an amount before a name as the substance, and a formula that starts with a bracket as a word', () => {
    const out = brief('2.1 g cobalt(II) acetate and 0.9 g triethanolamine were added into 25 mL ethanol.');
    expect(out).toContainEqual(expect.objectContaining({ s: 'n:triethanolamine', r: 'add_into', o: 'f:C2H6O', v: 25 }));
    expect(out).toContainEqual(expect.objectContaining({ r: 'add_into', o: 'f:C2H6O' }));
    expect(out.map((t) => t.s)).toHaveLength(2);
    const bath = brief('The bath contained 0.1 M Ni(NO3)2, and 0.05 M C6H12N4.');
    expect(bath.map((t) => t.o)).toEqual(['f:N2NiO6', 'f:C6H12N4']);
    expect(bath[0]).toMatchObject({ v: 0.1 });
    expect(brief('(NH4)2SO4 was dissolved in water.')).toContainEqual(expect.objectContaining({ s: 'f:H8N2O4S', r: 'dissolve_in', o: 'f:H2O' }));
    // An aside stays an aside.
    expect(brief('The electrolyte (YSZ) was sintered at 1400 °C.')).toContainEqual(expect.objectContaining({ s: 'n:electrolyte', r: 'processed_at' }));
  });

  it('reads a fronted goal with its substances after the verb, and the object of a gerund of means', () => {
    expect(brief('To the aqueous solution of PdCl2 (0.02 M, 4 mL) were added 1.5 g (0.1 mmol) of PVP and NaBH4.')).toEqual([
      { s: 'm:PVP', r: 'add_to', o: 'f:Cl2Pd', v: 1.5, unit: 'g' },
      { s: 'f:H4BNa', r: 'add_to', o: 'f:Cl2Pd' },
    ]);
    const made = brief('The NiO powder was obtained by calcining Ni(OH)2 and NiCO3 at 500 °C.');
    expect(made.filter((t) => t.r === 'synthesized_from').map((t) => t.o)).toEqual(['f:H2NiO2', 'f:CNiO3']);
    // Not every means is a synthesis: the gerund names the relation.
    expect(brief('The film was characterized by measuring its conductivity.')).toEqual([{ s: 'n:film', r: 'characterize_by_measure', o: 'p:conductivity' }]);
    expect(brief('In this work, we were able to see it.')).toEqual([]);
  });
  it('gives a value to the material its own sentence names, never the paragraph topic when it names another in words', () => {
    const out = brief('Crystals of MgB2 were grown from the melt. For comparison, the Tc of tantalum is 4.4 K.');
    expect(out.filter((t) => t.s === 'f:B2Mg' && t.o === 'p:critical-temperature')).toEqual([]);
  });

  it('does not read a rate or derivative as the property, nor a negative absolute temperature', () => {
    for (const sentence of ['Tc of MgB2 decreases with dTc/dP = −1.1 K/GPa.', 'The Tc of MgB2 falls at a rate of -1.1 K GPa-1 up to 20 GPa.'])
      expect(
        brief(sentence).filter((t) => t.o === 'p:critical-temperature'),
        sentence,
      ).toEqual([]);
  });

  it('reads a formula PDF extraction split with spaces whole, and a device name owns no value', () => {
    const out = brief('Applied as SOFC cathode, PrBa0.5Sr0.5Co2− xFexO5+ δ gave a peak power density of 2.2 W cm−2 at 600 °C.');
    const owners = [...new Set(out.filter((t) => t.o === 'p:power-density').map((t) => t.s))];
    expect(owners).toHaveLength(1);
    expect(owners[0]).toMatch(/^f:PrBa0\.5Sr0\.5Co2-xFex/);
    expect(owners[0]).toContain('Pr');
    expect(owners[0]).toContain('Fe');
  });

  it('makes no entity of a bare generic noun or qualifier', () => {
    const keys = brief('The sign of the effect gives information on the best way to high conductivity.').flatMap((t) => [t.s, t.o]);
    for (const generic of ['sign', 'information', 'best', 'way', 'high']) expect(keys.some((k) => k.endsWith(`:${generic}`))).toBe(false);
  });
  it('gives a value past a clause break to the material of its own clause', () => {
    const out = brief('LaCoO3 (LC) has a conductivity of 35 S/cm at 850 °C, whereas LaFeO3 (LF) displays a σ of 4.8 S/cm at 850 °C.');
    const owners = out.filter((t) => t.o === 'p:conductivity').map((t) => `${t.s} ${t.v}`);
    expect(owners).toContain('f:CoLaO3 35');
    expect(owners).not.toContain('f:CoLaO3 4.8');
  });
  it('gives no value read as a test condition, one of a list paired with another list, or one linked to a noun of its own', () => {
    // "under a current density of": the condition of a stability test.
    expect(
      brief('The PSCFN–GDC had excellent stability under a current density of 200 mA cm−2 for 100 h at 800 °C.').filter((t) => t.r === 'has_property'),
    ).toEqual([]);
    // Three Tc values for three dopings: which is whose is left to the order.
    const listed = brief('MgB2 fibers showed an onset of superconductivity at 10.2 K, 14.8 K, and 18.5 K for pure, 0.6%, and 2.1% carbon doping.');
    expect(listed.filter((t) => t.o === 'p:critical-temperature')).toEqual([]);
    // "fill factor of 41%" is no efficiency, though the efficiency is named first.
    const merits = brief('The device showed a power conversion efficiency of 3.16%, an open circuit voltage of 0.81 V, and fill factor of 41%.');
    expect([...new Set(merits.filter((t) => t.o === 'p:efficiency').map((t) => t.v))]).toEqual([3.16]);
    // A list of values without "respectively" gives each value, not a range; a span measured over is no value.
    const peaks = brief('The C1s peak of PBSCF was fitted with binding energies of 284.4, 285.3 and 287.2 eV.').filter((t) => t.r === 'has_property');
    expect(peaks.map((t) => [t.v, t.unit])).toEqual([
      [284.4, 'eV'],
      [285.3, 'eV'],
      [287.2, 'eV'],
    ]);
    expect(brief('Tunneling spectra of Bi2212 were measured between 14 K and 290 K.').filter((t) => t.r === 'has_property')).toEqual([]);
    // The exponent of "μmol g−1 h−1" is no time.
    expect(brief('The Fe2O3 nanorods exhibited a CO evolution rate of 37.13 μmol g−1 h−1.').filter((t) => t.unit === 'h')).toEqual([]);
    // What a value is compared with does not own it.
    const compared = brief('The highest power density at 700 °C was 372 mW/cm2, slightly lower than that for a cell with a SrFe0.8Cu0.1Nb0.1O3−δ anode.');
    expect(compared.filter((t) => t.o === 'p:power-density' && t.s.startsWith('f:'))).toEqual([]);
  });

  it('pairs the values of a "respectively" sentence with its materials in order, or leaves them out', () => {
    const paired = brief('The conductivities of LSCF, BSCF and SSC reach 120, 45 and 300 S/cm at 700 °C, respectively.');
    expect(paired.filter((t) => t.o === 'p:conductivity').map((t) => [t.s, t.v])).toEqual([
      ['m:LSCF', 120],
      ['m:BSCF', 45],
      ['n:ssc', 300],
    ]);
    const separate = brief('The Tc of MgB2 and Nb3Sn are 39 K and 18 K, respectively.');
    expect(separate.filter((t) => t.o === 'p:critical-temperature').map((t) => [t.s, t.v])).toEqual([
      ['f:B2Mg', 39],
      ['f:Nb3Sn', 18],
    ]);
    // Values against temperatures: one tuple over the range, at the listed temperatures.
    const atTemperatures = brief('The cell reached power densities of 2.3, 1.5 and 0.8 W cm−2 at 800, 700 and 600 °C in H2, respectively.');
    expect(atTemperatures.filter((t) => t.o === 'p:power-density').map((t) => [t.v, t.ref])).toEqual([[800, 'measured_at 800, 700 and 600 °C']]);
    // "They show …, respectively": the materials the sentence before listed.
    const previous = brief(
      'Single crystals of KOs2O6, RbOs2O6 and CsOs2O6 were grown. They show superconductivity at T c = 9.6 K, 6.3 K and 3.3 K, respectively.',
    );
    expect(previous.filter((t) => t.o === 'p:critical-temperature').map((t) => [t.s, t.v])).toEqual([
      ['f:KO6Os2', 9.6],
      ['f:O6Os2Rb', 6.3],
      ['f:CsO6Os2', 3.3],
    ]);
    // Two materials, three values: which is whose cannot be told.
    expect(brief('LSCF and BSCF reach 120, 45 and 300 S/cm, respectively.').filter((t) => t.o === 'p:conductivity')).toEqual([]);
  });

  it('makes the parts of a whole part_of the whole', () => {
    const out = brief('The compound has a layered structure composed of CoO2 planes.');
    expect(out.filter((t) => t.r === 'part_of').map((t) => [t.s, t.o])).toEqual([['f:CoO2', 'n:layeredstructure']]);
  });
});
