import { type Evidence, evidenceById } from '../evidence/model.ts';
import type { RetrievalResult } from '../pipelines/types.ts';

/**
 * The citable pool: every item one answer may cite, made once per answer and numbered once ([E1] … [En] by
 * position). The same array travels whole: streamed as the answer's sources, shown to a model as its evidence
 * blocks (a prefix of it), stored as `Answer.evidence`, rendered by the answer view, read by the judges and the
 * grading screen. Nothing renumbers it, so a label names the same item in the stream, in storage and on the page.
 * Every label in the project comes from `citationLabel` and the two maps below.
 */

/** Graph items an answer may cite besides the ranked evidence (tuples and paths behind it). */
const GRAPH_ITEMS = 20;

/** The label of the item at a position of the pool: E1 for the first. */
export const citationLabel = (position: number): string => `E${position + 1}`;

/** Each item's label, by item id. */
export function labelsById(pool: readonly Pick<Evidence, 'id'>[]): Map<string, string> {
  return new Map(pool.map((e, i) => [e.id, citationLabel(i)]));
}

/** Each label's item id (what a model's [E3] names). */
export function idsByLabel(pool: readonly Pick<Evidence, 'id'>[]): Map<string, string> {
  return new Map(pool.map((e, i) => [citationLabel(i), e.id]));
}

/** Items of the pool with their labels, e.g. the blocks of a prompt: `pick` chooses which (default: all, in order). */
export function labelledItems(pool: readonly Evidence[], pick: (e: Evidence, position: number) => boolean = () => true): { label: string; item: Evidence }[] {
  return pool.flatMap((item, i) => (pick(item, i) ? [{ label: citationLabel(i), item }] : []));
}

/**
 * The pool for an answer to this retrieval result: the items `leading` names first (an extractive draft's
 * citations, in the order it first cites them, so its labels read E1, E2 … down the answer), then the ranked
 * evidence, then the graph items the pipeline brought (the first 20; a leading id may name any of them, as a
 * design answer citing a route does). Ids that name nothing retrieved are ignored.
 */
export function citablePool(result: Pick<RetrievalResult, 'evidence' | 'extras' | 'recipes'>, leading: readonly string[] = []): Evidence[] {
  const graph = result.extras?.graphEvidence ?? [];
  const base = [...evidenceById([...result.evidence, ...graph.slice(0, GRAPH_ITEMS)]).values()];
  // A synthesis answer's recipes are in the pool only where it cites them (it counts from dozens).
  const known = evidenceById([...base, ...graph, ...(result.recipes?.evidence ?? [])]);
  const first = [...new Set(leading)].filter((id) => known.has(id));
  const lead = new Set(first);
  return [...first.map((id) => known.get(id)!), ...base.filter((e) => !lead.has(e.id))];
}
