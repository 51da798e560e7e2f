import { describe, expect, it } from 'vitest';
import { productLike } from './unassigned-candidates.ts';

describe('candidates no rule places', () => {
  it('takes no modifier, bracketed abbreviation, technique, device term or place for a product', () => {
    for (const t of [
      'N-doped',
      'Yb-Doped',
      'S-CSR-modified',
      '(VHF)',
      '(H.W.)',
      'SOFCs',
      'H-SOFC',
      'OCV',
      'RHE',
      'USA',
      'ICP-OES',
      'X-ray',
      'Colloidal-crystal-template',
    ])
      expect([t, productLike(t)]).toEqual([t, false]);
    for (const t of ['NiFe-LDH', 'Co-MOF', 'MOF-74', 'LSCF6428', 'CoSe2', 'FeNi@FeNi']) expect([t, productLike(t)]).toEqual([t, true]);
  });
});
