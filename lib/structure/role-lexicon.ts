/**
 * The lexicon keys whose role in a recipe the rules know from the key alone (lib/structure/entities.ts): solvents,
 * substrates (supports a product grows on) and additives (reagents that bring no metal to the product).
 */
export const SOLVENTS = new Set(['H2O', 'EtOH', 'MeOH', 'DMF', 'EG', 'IPA', 'DMAc', 'DMSO', 'MeCN', 'glycerol']);
export const SUBSTRATES = new Set(['NF', 'CC', 'CFP', 'CP', 'CF', 'CuF', 'IF', 'TiM', 'TiF', 'SSM', 'FTO', 'ITO']);
export const ADDITIVES = new Set([
  'CO(NH2)2',
  'CS(NH2)2',
  'NH4F',
  'HMTA',
  'PVP',
  'CTAB',
  'TAA',
  'H2BDC',
  'H3BTC',
  '2-MeIm',
  'SDS',
  'NH3',
  'NaBH4',
  'H2O2',
  'melamine',
  'glucose',
  'glycine',
  'sucrose',
  'C6H8O7',
  'NaH2PO2',
  'KOH',
  'NaOH',
]);
