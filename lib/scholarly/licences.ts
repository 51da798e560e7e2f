/**
 * Licences as the services write them — OpenAlex `cc-by-nc`, Europe PMC `cc by-nc`, Crossref
 * `http://creativecommons.org/licenses/by-nc/4.0/`, "CC BY 4.0" — in one spelling (`cc-by-nc`, `cc0`,
 * `public-domain`), so one list of licences that allow an import (ASSAY_IMPORT_LICENCES) reads them all.
 * Anything else ("other-oa", "publisher-specific-oa", "implied-oa") is kept as written, lower-cased: open to read,
 * with no stated right to reuse.
 */
export function normaliseLicence(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const s = raw.trim().toLowerCase();
  if (!s) return null;
  if (/publicdomain\/zero|\bcc[\s-]?0\b|\bcc[\s-]?zero\b/.test(s)) return 'cc0';
  if (/public[\s-]?domain|publicdomain\/mark/.test(s)) return 'public-domain';
  const url = /creativecommons\.org\/licenses\/([a-z-]+)/.exec(s);
  const parts = url ? url[1].split('-') : /^(?:cc|creative commons)[\s-]+([a-z\s-]+?)(?:[\s-]*\d(?:\.\d)*)?(?:\s+\w+)?$/.exec(s)?.[1].split(/[\s-]+/);
  if (!parts?.length || parts[0] !== 'by') return s;
  const order = ['by', 'nc', 'nd', 'sa'];
  const kept = order.filter((p) => parts.includes(p));
  return `cc-${kept.join('-')}`;
}

/** How a normalised licence reads on the screen. */
export function licenceText(licence: string | null): string {
  if (!licence) return 'no licence stated';
  if (licence === 'cc0') return 'CC0';
  if (licence === 'public-domain') return 'public domain';
  if (licence.startsWith('cc-')) return licence.replace(/^cc-/, 'CC ').toUpperCase();
  return licence;
}
