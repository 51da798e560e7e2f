import type { Database } from '../db/database.ts';
import { nameEntities, replaceEmbeddingMerges, undoneMergeIds } from '../db/graph-merges.ts';
import type { TextEmbedder } from '../embedding/embedder.ts';
import { canonicalClustersSliced, type NameItem } from './canonical.ts';
import { timeSlicer } from '../common/yield.ts';
import { textFacets } from '../structure/terms.ts';
import { findProperties } from '../structure/properties.ts';
import type { AssayConfig } from '../config.ts';
import { createEmbedder } from '../embedding/select.ts';
import { mergeSameItems } from './same-item-merges.ts';

/**
 * What two names must share to be merged: names that differ in it are never one entity, however close their
 * embeddings. Names that state different formulas ("TiO2 + g-C3N4", "g-C3N4 + Pt") are different materials: merging
 * may never change the chemistry. Nor may it join names that differ only in a number ("sample 35", "sample 40";
 * "8YSZ", "3YSZ"): the number is what tells them apart.
 */
export function mergeGuard(label: string): string {
  const f = textFacets(label);
  const words = label.toLowerCase().match(/[a-z]+/g) ?? [];
  // Nor a substance with the process or agent of the same stem ("oxide", "oxidation", "oxidant"; "anode",
  // "anodization"): the head word's kind is part of the guard. And a word of degree ("high", "best", "average")
  // tells names apart except in a property's name ("high conductivity" is a conductivity).
  // The head is the last word that says what the thing is ("oxidation reaction" is an oxidation).
  const content = words.filter((w) => !DEGREE.has(w) && !GENERIC_HEAD.has(w));
  const head = content.at(-1) ?? words.at(-1);
  // The head word itself, by its stem: "solar cell" is not "solar energy", however close their letters; and a name
  // with a modifier is a kind of its head, not the bare head ("phase structure" is not any "structure").
  const kind = head ? [`head:${wordKind(head)}`, `stem:${head.replace(/(?<!s)s$/, '').slice(0, 4)}`, ...(content.length === 1 ? ['bare'] : [])] : [];
  const degree = findProperties(label).length ? [] : words.filter((w) => DEGREE.has(w)).map((w) => `degree:${w}`);
  const symbols = (label.match(/[A-Za-z0-9()[\]·+-]+/g) ?? []).filter((t) => /^[A-Z][a-z]?$/.test(t) || /[A-Z].*[A-Z0-9]/.test(t));
  const numbers = label.match(/\d+(?:\.\d+)?/g) ?? [];
  // Nor names whose quantities differ in kind ("about 2 μm", "about 2 g") or whose doping type does ("n-type", "p-type").
  const kinds = [...f.quantities.map((q) => q.dimension), ...(label.match(/\b[np]-type\b/gi) ?? []).map((t) => t.toLowerCase())];
  return [...new Set([...f.formulas, ...f.materials, ...symbols, ...numbers.map((n) => `#${n}`), ...kinds, ...kind, ...degree])].sort().join('|');
}

/** Nouns that name the kind of thing a head word is, not a thing of their own ("oxidation reaction", "doping effect"). */
const GENERIC_HEAD = new Set('reaction reactions process processes method methods technique techniques effect effects behaviour behavior mechanism'.split(' '));

const DEGREE = new Set(
  'high higher highest low lower lowest best better good excellent average mean maximum max minimum min large larger small smaller enhanced improved superior poor typical total overall'.split(
    ' ',
  ),
);

/**
 * A head word's kind by its ending: a process, an agent, a substance, a quality ("susceptibility", "hardness"), a
 * word that describes one ("susceptible", "magnetic"), or another word. A thing and a word about it never merge.
 */
function wordKind(word: string): 'process' | 'agent' | 'substance' | 'quality' | 'describing' | 'other' {
  const w = word.replace(/ies$/, 'y').replace(/(?<!s)s$/, '');
  if (/(?:ity|ness)$/.test(w) && w.length > 5) return 'quality';
  if (/(?:ible|able|ive|ous|ic|al|ful|less)$/.test(w) && w.length > 4) return 'describing';
  if (/(?:tion|sion|ment|ing|ysis|ance|ence)$/.test(w) && w.length > 5) return 'process';
  if (/(?:ant|ent|[iy]zer|[iy]ser|tor)$/.test(w) && w.length > 5) return 'agent';
  if (/(?:ide|ate|ite|ine|ene|ane|ode)$/.test(w) && w.length > 3) return 'substance';
  return 'other';
}

/**
 * Clusters the graph's name entities and records each merge on the merged entity (representative, method,
 * cosine distance). Earlier embedding merges are replaced; merges undone by hand (mergeMethod "undone") stay
 * undone. Nothing else changes: tuples keep pointing at the entity they were extracted with.
 */
export async function canonicalizeEntities(db: Database, embedder: TextEmbedder, threshold = 0.5) {
  const t0 = performance.now();
  // Labels with hardly any letters ("(6.08", "Br)") carry too few features for a meaningful distance.
  const names = (await nameEntities(db)).filter((e) => (e.label.match(/[A-Za-z]/g) ?? []).length >= 4);
  const undone = await undoneMergeIds(db);
  const vectors = await embedder.embed(names.map((n) => n.label));
  const slice = timeSlicer();
  const items: NameItem[] = [];
  for (const [i, n] of names.entries()) {
    items.push({ id: n.id, label: n.label, vector: vectors[i], guard: mergeGuard(n.label) });
    await slice();
  }
  const clusters = await canonicalClustersSliced(items, threshold);
  const merges = clusters.flatMap((c) =>
    c.members
      .filter((m) => m.id !== c.representative && !undone.has(m.id))
      .map((m) => ({ id: m.id, into: c.representative, distance: m.distance, method: c.numeric ? 'numeric' : 'embedding' })),
  );
  await replaceEmbeddingMerges(db, merges);
  // Entities linked to one Wikidata item are one entity, whatever their embeddings say.
  const sameItem = await mergeSameItems(db);
  return {
    sameItemMerged: sameItem.merged,
    names: names.length,
    clusters: clusters.length,
    merged: merges.length,
    multiMember: clusters.filter((c) => c.members.length > 1).length,
    seconds: (performance.now() - t0) / 1000,
    sample: clusters
      .filter((c) => c.members.length > 1)
      .slice(0, 10)
      .map((c) => ({ label: c.label, members: c.members.map((m) => names.find((n) => n.id === m.id)!.label) })),
  };
}

/**
 * Canonicalisation with the configured embedder: the provider's (threshold 0.5, as in method B) or the local
 * character n-gram embedder fitted on the names, whose distances run smaller than a sentence model's, hence 0.25.
 */
export const LOCAL_EMBEDDER_MERGE_DISTANCE = 0.25;

export async function canonicalizeWithConfiguredEmbedder(db: Database, cfg: AssayConfig) {
  const names = await nameEntities(db);
  const embedder = await createEmbedder(db, cfg, () => names.map((n) => n.label));
  return canonicalizeEntities(db, embedder, cfg.embedding ? 0.5 : LOCAL_EMBEDDER_MERGE_DISTANCE);
}
