import { describe, expect, it } from 'vitest';
import { licenceText, normaliseLicence } from './licences.ts';

describe('normaliseLicence', () => {
  it('reads each service’s spelling of one licence alike', () => {
    for (const raw of ['cc-by', 'cc by', 'CC BY 4.0', 'http://creativecommons.org/licenses/by/4.0/', 'https://creativecommons.org/licenses/by/3.0/deed.en'])
      expect(normaliseLicence(raw), raw).toBe('cc-by');
    for (const raw of ['cc-by-nc-nd', 'cc by-nc-nd', 'CC BY-NC-ND 4.0', 'http://creativecommons.org/licenses/by-nc-nd/4.0/'])
      expect(normaliseLicence(raw), raw).toBe('cc-by-nc-nd');
    expect(normaliseLicence('cc by-sa')).toBe('cc-by-sa');
    expect(normaliseLicence('https://creativecommons.org/publicdomain/zero/1.0/')).toBe('cc0');
    expect(normaliseLicence('CC0')).toBe('cc0');
    expect(normaliseLicence('public-domain')).toBe('public-domain');
  });

  it('keeps what is no Creative Commons licence as written, and nothing as null', () => {
    expect(normaliseLicence('publisher-specific-oa')).toBe('publisher-specific-oa');
    expect(normaliseLicence('Other-OA')).toBe('other-oa');
    expect(normaliseLicence('')).toBeNull();
    expect(normaliseLicence(null)).toBeNull();
  });

  it('names licences for the screen', () => {
    expect(licenceText('cc-by-nc')).toBe('CC BY-NC');
    expect(licenceText(null)).toBe('no licence stated');
    expect(licenceText('cc0')).toBe('CC0');
  });
});
