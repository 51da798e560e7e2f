import { graphCounts } from '../db/graph.ts';
import { entityLinkCounts, linksForReview, reviewEntityLink } from '../db/entity-links.ts';
import { allowMerge, findEntities, mergeGroups, undoMerge } from '../db/graph-merges.ts';
import { answerGraph, neighbourhood, startingPoints } from '../graph/explore.ts';
import { Deadline } from '../common/deadline.ts';
import { appContext, appDatabase } from './app.ts';
import { mergeSameItems } from '../graph/same-item-merges.ts';

/** The knowledge graph as the app shows it: counts, merges, entity search, neighbourhoods, curation. */

export type { MergeMember } from '../db/graph-merges.ts';

/**
 * The /graph page: counts, a page of merge groups (filtered by name), entities matching a name, a neighbourhood to
 * start from; its searches within the request's time budget (ASSAY_QUESTION_BUDGET_SECONDS), past which the page
 * says so rather than waits.
 */
export async function graphPage(opts: { q: string; skip: number; take: number; entity: string; explore: string }) {
  const { db, cfg } = await appContext();
  const deadline = Deadline.in(cfg.budgetMs, 'search');
  // Before any search the page opens on the material with values in the most papers (a first view, not an empty box).
  const firstLook = !opts.explore && !opts.entity;
  // An entity asked for is read beside the rest; the first view's neighbourhood needs its starting point first.
  const [counts, merges, matches, starts, explored] = await deadline.race(
    Promise.all([
      graphCounts(db),
      mergeGroups(db, { q: opts.q, skip: opts.skip, take: opts.take }),
      opts.entity ? findEntities(db, opts.entity) : Promise.resolve([]),
      firstLook ? startingPoints(db) : Promise.resolve([]),
      opts.explore ? neighbourhood(db, opts.explore) : Promise.resolve(null),
    ]),
  );
  const startKey = opts.explore || starts[0]?.key || '';
  const start = explored ?? (startKey ? await deadline.race(neighbourhood(db, startKey)) : null);
  const [links, linkCounts] = await Promise.all([linksForReview(db, 200), entityLinkCounts(db)]);
  return { counts, merges, matches, starts, startKey, start, links, linkCounts };
}

/** Rejects a Wikidata link (kept as rejected; never made again; its aliases no longer expand questions) or restores it. */
export async function setLinkKept(key: string, keep: boolean) {
  const db = await appDatabase();
  await reviewEntityLink(db, key, keep);
  // A rejected link merges nothing; a restored one merges again.
  await mergeSameItems(db);
}

/** An entity's neighbourhood as a graph view (canonical merges followed). */
export async function entityNeighbourhood(key: string) {
  return neighbourhood(await appDatabase(), key);
}

/** The graph behind an answer: the named tuples and those of the named paragraphs. */
export async function graphBehindAnswer(from: { tupleIds: string[]; paragraphIds: string[] }) {
  return answerGraph(await appDatabase(), from);
}

/**
 * Undoes a canonical merge (the name becomes its own entity; clustering will not redo it) or allows it again. A
 * merge changes the corpus version, so the retrieval index picks the change up on the next question.
 */
export async function setMergeAllowed(key: string, allowed: boolean) {
  const db = await appDatabase();
  await (allowed ? allowMerge(db, key) : undoMerge(db, key));
}
