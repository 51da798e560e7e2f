import { MultiGraph } from 'graphology';
import type { Database } from '../../db/database.ts';
import { allEdges, deletePaperTuples, graphCounts, insertTuples, tuplesTouching, upsertEntities } from '../../db/graph.ts';
import { checkHops, type GraphPath, type GraphStore } from '../store.ts';

/**
 * The embedded graph store: entities and tuples are rows in the relational database (PGlite or PostgreSQL);
 * paths are found in process on a graphology multigraph loaded from those rows and reloaded after writes.
 */
export function createEmbeddedGraphStore(db: Database): GraphStore {
  let graph: MultiGraph | null = null;
  const load = async () => {
    if (!graph) {
      const g = new MultiGraph();
      for (const e of await allEdges(db)) {
        g.mergeNode(e.subjectKey);
        g.mergeNode(e.objectKey);
        if (!g.hasEdge(e.id)) g.addEdgeWithKey(e.id, e.subjectKey, e.objectKey, { relation: e.relation });
      }
      graph = g;
    }
    return graph;
  };
  return {
    kind: 'embedded',
    async ensureSchema() {
      // The tables, keys and indexes come with the SQL migrations.
    },
    async upsert({ entities, tuples }) {
      await upsertEntities(db, entities);
      await insertTuples(db, tuples);
      graph = null;
    },
    async deleteTuplesOfPapers(paperIds) {
      await deletePaperTuples(db, paperIds);
      graph = null;
    },
    tuplesTouching: (keys, limit) => tuplesTouching(db, keys, limit),
    async paths(fromKey, toKey, maxHops, limit = 50) {
      checkHops(maxHops);
      const g = await load();
      if (!g.hasNode(fromKey) || !g.hasNode(toKey)) return [];
      // Depth-first search bounded by hops and by the number of paths: hubs ("solvent") would otherwise make the
      // number of simple paths explode.
      const out: GraphPath[] = [];
      const nodes = [fromKey];
      const edges: string[] = [];
      const onPath = new Set([fromKey]);
      const walk = (node: string) => {
        if (out.length >= limit) return;
        if (node === toKey && edges.length > 0) {
          out.push({ nodes: [...nodes], tupleIds: [...edges] });
          return;
        }
        if (edges.length >= maxHops) return;
        const steps: [string, string][] = [];
        g.forEachEdge(node, (edge, _attrs, source, target) => steps.push([edge, source === node ? target : source]));
        steps.sort((a, b) => (a[0] < b[0] ? -1 : 1));
        for (const [edge, next] of steps) {
          if (onPath.has(next) && next !== toKey) continue;
          if (next === fromKey) continue;
          nodes.push(next);
          edges.push(edge);
          onPath.add(next);
          walk(next);
          onPath.delete(next);
          nodes.pop();
          edges.pop();
          if (out.length >= limit) return;
        }
      };
      walk(fromKey);
      return out.sort((a, b) => a.tupleIds.length - b.tupleIds.length);
    },
    async counts() {
      const c = await graphCounts(db);
      return { entities: c.entities, tuples: c.tuples };
    },
    async close() {
      graph = null;
    },
  };
}
