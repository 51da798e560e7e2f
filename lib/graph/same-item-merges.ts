import type { Database } from '../db/database.ts';
import { linkedEntities } from '../db/entity-links.ts';
import { entityMergeState, replaceMergesByKey } from '../db/graph-merges.ts';

/**
 * Canonicalisation by Wikidata (method D's entity linking joining canonical clustering): materials and names linked
 * to the same item are one thing ("magnesium diboride wire" and MgB2 when both link to magnesium diboride), merged
 * into the one a formula names, else the one with most tuples. Each merge is listed on /graph
 * with method `wikidata` and undone there like any merge; a rejected link merges nothing. Run after every linking,
 * link review and clustering (which would otherwise replace these merges).
 */
export const SAME_ITEM_METHOD = 'wikidata';

export async function mergeSameItems(db: Database): Promise<{ groups: number; merged: number }> {
  const byItem = new Map<string, string[]>();
  // Properties and methods are named by their lexicons already, and linked by name alone ("conductivity" to
  // "electrical conductivity"): merging them by a link would join what the lexicon keeps apart.
  for (const l of await linkedEntities(db)) if (l.qid && !/^(?:p|method):/.test(l.entityKey)) byItem.set(l.qid, [...(byItem.get(l.qid) ?? []), l.entityKey]);
  const groups = [...byItem.values()].filter((keys) => keys.length > 1);
  const state = await entityMergeState(db, groups.flat());
  const merges: { key: string; into: string }[] = [];
  let made = 0;
  for (const keys of groups) {
    // An entity whose merge a curator undid stays its own.
    const present = keys.flatMap((k) => state.get(k) ?? []).filter((e) => e.mergeMethod !== 'undone');
    if (present.length < 2) continue;
    const [rep, ...rest] = present.sort(
      (a, b) => Number(b.key.startsWith('f:')) - Number(a.key.startsWith('f:')) || b.tuples - a.tuples || a.key.localeCompare(b.key),
    );
    // A representative merged into something else by clustering would chain merges: the group waits for a curator.
    if (rep.mergedIntoId && rep.mergeMethod !== SAME_ITEM_METHOD) continue;
    made++;
    for (const m of rest) merges.push({ key: m.key, into: rep.key });
  }
  await replaceMergesByKey(db, SAME_ITEM_METHOD, merges);
  return { groups: made, merged: merges.length };
}
