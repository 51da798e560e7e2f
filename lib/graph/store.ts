import type { StoredEntity, StoredTuple } from '../db/graph.ts';

/**
 * Where the knowledge graph lives. Two implementations with one contract (lib/graph/store.contract.ts): the
 * embedded store (tuples and entities in the relational database, traversal in process with graphology) and
 * Neo4j (neo4j-driver, parameterised Cypher, batched UNWIND upserts). Entities are addressed by canonical key.
 */
export interface GraphPath {
  /** Entity keys along the path, from the start to the end. */
  nodes: string[];
  /** The tuple (edge) ids between consecutive nodes. */
  tupleIds: string[];
}

export interface GraphStore {
  readonly kind: 'embedded' | 'neo4j';
  /** Constraints and indexes; safe to call on every start. */
  ensureSchema(): Promise<void>;
  /** Adds or updates entities (by key) and tuples (by id); re-sending the same batch changes nothing. */
  upsert(batch: { entities: StoredEntity[]; tuples: StoredTuple[] }): Promise<void>;
  deleteTuplesOfPapers(paperIds: string[]): Promise<void>;
  /** Tuples whose subject or object is one of the keys, in tuple-id order. */
  tuplesTouching(keys: string[], limit: number): Promise<StoredTuple[]>;
  /** Simple paths of 1..maxHops edges between two entities (edges followed in either direction). */
  paths(fromKey: string, toKey: string, maxHops: number, limit?: number): Promise<GraphPath[]>;
  counts(): Promise<{ entities: number; tuples: number }>;
  close(): Promise<void>;
}

export const MAX_HOPS = 6;

export function checkHops(maxHops: number): number {
  if (!Number.isInteger(maxHops) || maxHops < 1 || maxHops > MAX_HOPS) throw new RangeError(`maxHops must be an integer from 1 to ${MAX_HOPS}, got ${maxHops}`);
  return maxHops;
}
