import type { CorpusRecord } from '../db/retrieval-corpus.ts';
import { recordEntries } from '../structure/record-mapping.ts';
import { forgetPlainTerms, formulaKey, plainTerms } from '../structure/terms.ts';
import { lazyOnce } from '../common/lazy.ts';
import { timeSlicer } from '../common/yield.ts';
import { releaseMemory } from '../common/release-memory.ts';
import { type Facets, facetTerms, type QuantityFacet } from './facets.ts';
import { LexicalIndex } from './lexical-index.ts';
import { RecordPacker, StoredRecords } from './packed-records.ts';

/**
 * The records index: imported recipes and experiments rendered through the record mapping, BM25 + facets. Built on
 * first use (only the records pipeline reads it), from the database a page of rows at a time: each row is rendered,
 * packed and indexed, then let go of, so the build holds one page of rows and no list of every record's terms.
 */

function renderRecord(r: CorpusRecord): { text: string; facets: Facets } {
  const data = (r.data ?? {}) as Record<string, unknown>;
  const { synthesis, performance } = recordEntries(r.id, r.kind, data);
  const lines: string[] = [];
  const materials = new Set<string>();
  const quantities: QuantityFacet[] = [];
  const properties = new Set<string>();
  const addMaterial = (m: { text: string; key: string; formula: string | null }) => {
    const fk = m.formula ? formulaKey(m.formula) : null;
    if (fk) materials.add(`f:${fk}`);
    else if (!m.key.startsWith('name:')) materials.add(`m:${m.key}`);
  };
  for (const s of synthesis) {
    const names = (list: { text: string }[]) => list.map((m) => m.text).join(', ');
    lines.push(`synthesis (${s.method ?? 'unknown method'}) of ${names(s.targets)} from ${names(s.precursors)}`);
    if (s.solvents.length) lines.push(`in ${names(s.solvents)}`);
    for (const m of [...s.targets, ...s.precursors, ...s.solvents, ...s.additives, ...s.substrates]) addMaterial(m);
    for (const c of [...s.conditions.temperature, ...s.conditions.time]) {
      lines.push(`${c.step ?? ''} ${c.text}`.trim());
      const dimension = s.conditions.temperature.includes(c as never) ? 'temperature' : 'time';
      quantities.push({ dimension, values: c.canonical, range: c.canonical.length === 2, text: c.text });
    }
    if (s.conditions.atmosphere.length) lines.push(`atmosphere ${s.conditions.atmosphere.join(', ')}`);
  }
  for (const p of performance) {
    lines.push(`${p.material ?? ''} ${p.property} ${p.value.join('–')} ${p.unit}`.trim());
    if (p.materialKey) materials.add(p.materialKey.startsWith('name:') ? p.materialKey : `m:${p.materialKey}`);
    properties.add(p.property);
  }
  // Materials come from the mapped entries (formulas already normalised), not from re-reading the text.
  return { text: [r.title ?? '', ...lines].filter(Boolean).join('. '), facets: { materials, properties, quantities } };
}

/** Pages of rows (5,000 each from the database) between two collections while the records index is built. */
const COLLECT_EVERY_PAGES = 8;

export interface RecordIndex {
  records: StoredRecords;
  lexical: LexicalIndex;
  buildSeconds: number;
}

export interface LazyRecordIndex {
  /** Number of records (known without building). */
  size: number;
  get(): Promise<RecordIndex>;
}

/**
 * `loadPage(after)`: the records after id `after` (null: from the first) in id order, a page at a time; an empty
 * page is the end.
 */
export function lazyRecordIndex(count: number, loadPage: (after: string | null) => Promise<CorpusRecord[]>, paperByDoi: Map<string, string>): LazyRecordIndex {
  return {
    size: count,
    get: lazyOnce(async () => {
      const t0 = performance.now();
      const packer = new RecordPacker();
      const lexical = LexicalIndex.builder({ text: 1, structure: 1.5 });
      const slice = timeSlicer();
      for (let after: string | null = null, pages = 0; ; pages++) {
        // Every few pages what the last ones left behind is collected (their rows, rendered texts, and the packed
        // columns' buffers outgrown as they doubled): left to the collector, a retrieval worker that already held
        // a ×10 corpus's index grew by 0.9 GB more than the records index keeps while it built it.
        if (pages > 0 && pages % COLLECT_EVERY_PAGES === 0) releaseMemory(1);
        const rows = await loadPage(after);
        if (!rows.length) break;
        for (const r of rows) {
          await slice();
          const { text, facets } = renderRecord(r);
          const paperId = r.paperId ?? (r.doi ? (paperByDoi.get(r.doi.toLowerCase()) ?? null) : null);
          packer.add({ id: r.id, paperId, doi: r.doi, kind: r.kind, title: r.title, text, facets });
          lexical.add({ id: r.id, fields: { text: plainTerms(text), structure: facetTerms(facets) } });
        }
        after = rows[rows.length - 1].id;
      }
      const index = { records: new StoredRecords(packer.done()), lexical: lexical.finish(), buildSeconds: 0 };
      forgetPlainTerms();
      releaseMemory(1);
      return { ...index, buildSeconds: (performance.now() - t0) / 1000 };
    }),
  };
}
