/**
 * The units Assay reads after a number: each dimension, its canonical unit (the one chemists compare in) and every
 * surface spelling of every unit, mapped to a mathjs expression. The quantity parser (quantities.ts) matches these.
 */

export type Dimension =
  | 'temperature'
  | 'time'
  | 'pressure'
  | 'length'
  | 'concentration'
  | 'fraction'
  | 'current-density'
  | 'specific-current'
  | 'current'
  | 'potential'
  | 'power-density'
  | 'conductivity'
  | 'specific-capacity'
  | 'energy'
  | 'mass'
  | 'volume'
  | 'frequency'
  | 'rate'
  | 'surface-energy'
  | 'area-resistance'
  | 'tafel-slope'
  | 'wavenumber'
  | 'mobility'
  | 'specific-area'
  | 'seebeck'
  | 'thermal-conductivity'
  | 'production-rate';

export interface UnitSpec {
  /** mathjs unit expression, or null for dimensionless fractions. */
  math: string | null;
  dimension: Dimension;
  /** For a fraction (math null): percent per unit ("ppm" is 1e-4 %); 1 when absent. */
  percent?: number;
}

/** Canonical unit per dimension: the one chemists compare in (K, h, mA cm⁻² …), as a mathjs expression. */
export const canonicalUnits: Record<Dimension, string> = {
  temperature: 'K',
  time: 'h',
  pressure: 'Pa',
  length: 'nm',
  concentration: 'mol/L',
  fraction: '%',
  'current-density': 'mA/cm^2',
  'specific-current': 'A/g',
  current: 'A',
  potential: 'V',
  'power-density': 'mW/cm^2',
  conductivity: 'S/cm',
  'specific-capacity': 'mAh/g',
  energy: 'eV',
  mass: 'g',
  volume: 'mL',
  frequency: 'Hz',
  rate: 'K/min',
  'surface-energy': 'mJ/m^2',
  'area-resistance': 'ohm cm^2',
  'tafel-slope': 'mV', // per decade of current
  wavenumber: 'cm^-1',
  mobility: 'cm^2/(V s)',
  'specific-area': 'm^2/g',
  seebeck: 'uV/K',
  'thermal-conductivity': 'W/(m K)',
  'production-rate': 'umol/(h g)',
};

/** Surface unit (after typographic normalisation, see `normaliseUnitText`) → mathjs unit and dimension. */
export function buildUnitTable(): Map<string, UnitSpec> {
  const t = new Map<string, UnitSpec>();
  const add = (surface: string, math: string | null, dimension: Dimension, percent?: number) =>
    t.set(surface, percent === undefined ? { math, dimension } : { math, dimension, percent });
  add('°C', 'degC', 'temperature');
  add('degC', 'degC', 'temperature');
  add('deg C', 'degC', 'temperature');
  // A bare "C" after a number is Celsius only from 100 up ("at 600 C", "800C"): below, it is a C-rate ("1C", "10 C").
  add('C', 'degC', 'temperature');
  add('degC/min', 'degC/min', 'rate');
  add('degC min^-1', 'degC/min', 'rate');
  add('K', 'K', 'temperature');
  add('°F', 'degF', 'temperature');
  for (const [s, m] of [
    ['h', 'h'],
    ['hr', 'h'],
    ['hrs', 'h'],
    ['hours', 'h'],
    ['hour', 'h'],
    ['min', 'min'],
    ['mins', 'min'],
    ['minutes', 'min'],
    ['s', 's'],
    ['sec', 's'],
    ['ms', 'ms'],
    ['d', 'day'],
    ['days', 'day'],
    ['day', 'day'],
    ['weeks', 'week'],
    ['week', 'week'],
  ])
    add(s, m, 'time');
  for (const p of ['', 'k', 'M', 'G', 'm']) add(`${p}Pa`, `${p}Pa`, 'pressure');
  for (const p of ['', 'k', 'm', 'µ']) add(`${p}bar`, `${p === 'µ' ? 'u' : p}bar`, 'pressure');
  add('Torr', 'torr', 'pressure');
  add('torr', 'torr', 'pressure');
  add('mTorr', 'mtorr', 'pressure');
  add('atm', 'atm', 'pressure');
  add('psi', 'psi', 'pressure');
  for (const p of ['', 'c', 'm', 'µ', 'u', 'n', 'p']) add(`${p}m`, `${p === 'u' ? 'u' : p}m`, 'length');
  add('Å', 'angstrom', 'length');
  add('M', 'mol/L', 'concentration');
  add('mM', 'mmol/L', 'concentration');
  add('µM', 'umol/L', 'concentration');
  add('mol/L', 'mol/L', 'concentration');
  add('mol L^-1', 'mol/L', 'concentration');
  add('mol dm^-3', 'mol/L', 'concentration');
  for (const f of ['%', 'wt%', 'mol%', 'at%', 'vol%', 'wt.%', 'at.%', 'mol.%', 'vol.%']) add(f, null, 'fraction');
  add('ppm', null, 'fraction', 1e-4);
  add('ppb', null, 'fraction', 1e-7);
  // Band positions of vibrational spectra (IR, Raman), carrier mobilities and specific surface areas.
  add('cm^-1', 'cm^-1', 'wavenumber');
  for (const u of ['cm^2 V^-1 s^-1', 'cm^2/Vs', 'cm^2/V s', 'cm^2/(V s)', 'cm^2/(V·s)', 'cm^2 /Vs']) add(u, 'cm^2/(V s)', 'mobility');
  for (const u of ['m^2 g^-1', 'm^2/g']) add(u, 'm^2/g', 'specific-area');
  for (const p of ['', 'm', 'µ', 'u']) {
    add(`${p}A cm^-2`, `${p}A/cm^2`, 'current-density');
    add(`${p}A/cm^2`, `${p}A/cm^2`, 'current-density');
    add(`${p}A/cm^-2`, `${p}A/cm^2`, 'current-density'); // a common slip for A cm⁻²
    add(`${p}A g^-1`, `${p}A/g`, 'specific-current');
    add(`${p}A/g`, `${p}A/g`, 'specific-current');
    add(`${p}A`, `${p}A`, 'current');
  }
  for (const p of ['', 'm', 'k']) add(`${p}V`, `${p}V`, 'potential');
  for (const p of ['', 'm', 'k', 'µ']) {
    add(`${p}W cm^-2`, `${p}W/cm^2`, 'power-density');
    add(`${p}W/cm^2`, `${p}W/cm^2`, 'power-density');
    add(`${p}W/cm^-2`, `${p}W/cm^2`, 'power-density'); // a common slip for W cm⁻²
  }
  for (const p of ['', 'm', 'µ']) {
    add(`${p}S cm^-1`, `${p}S/cm`, 'conductivity');
    add(`${p}S/cm`, `${p}S/cm`, 'conductivity');
    add(`${p}S m^-1`, `${p}S/m`, 'conductivity');
  }
  add('mAh g^-1', 'mAh/g', 'specific-capacity');
  add('mAh/g', 'mAh/g', 'specific-capacity');
  add('Ah kg^-1', 'Ah/kg', 'specific-capacity');
  for (const p of ['', 'm', 'k', 'M']) add(`${p}eV`, `${p}eV`, 'energy');
  for (const p of ['', 'm', 'µ', 'k']) add(`${p}g`, `${p}g`, 'mass');
  for (const p of ['', 'm', 'µ']) add(`${p}L`, `${p}L`, 'volume');
  add('ml', 'mL', 'volume');
  for (const p of ['', 'k', 'M', 'G']) add(`${p}Hz`, `${p}Hz`, 'frequency');
  add('°C min^-1', 'degC/min', 'rate');
  add('°C/min', 'degC/min', 'rate');
  add('K min^-1', 'K/min', 'rate');
  add('K/min', 'K/min', 'rate');
  add('mJ m^-2', 'mJ/m^2', 'surface-energy');
  add('mJ/m^2', 'mJ/m^2', 'surface-energy');
  add('mV dec^-1', 'mV', 'tafel-slope');
  add('mV/dec', 'mV', 'tafel-slope');
  add('V dec^-1', 'V', 'tafel-slope');
  add('Ω cm^2', 'ohm cm^2', 'area-resistance');
  add('ohm cm^2', 'ohm cm^2', 'area-resistance');
  add('mΩ cm^2', 'mohm cm^2', 'area-resistance');
  // Thermoelectrics (Seebeck coefficient, thermal conductivity) and photocatalysts' gas evolution rates per gram of
  // catalyst. Not tesla: a bare "T" after a number is as often a garbled formula or a polytype ("1T-MoS2") as a field.
  for (const p of ['', 'm', 'µ']) {
    add(`${p}V K^-1`, `${p}V/K`, 'seebeck');
    add(`${p}V/K`, `${p}V/K`, 'seebeck');
  }
  for (const p of ['', 'm']) {
    add(`${p}W m^-1 K^-1`, `${p}W/(m K)`, 'thermal-conductivity');
    for (const u of ['W/(m K)', 'W/(m·K)', 'W/m K', 'W/mK']) add(`${p}${u}`, `${p}W/(m K)`, 'thermal-conductivity');
  }
  for (const p of ['µ', 'm']) {
    for (const u of ['mol h^-1 g^-1', 'mol g^-1 h^-1', 'mol/h/g', 'mol/g/h', 'mol/(h g)', 'mol/(g h)']) add(`${p}${u}`, `${p}mol/(h g)`, 'production-rate');
  }
  return t;
}
