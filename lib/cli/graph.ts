import { config } from '../config.ts';
import { openMigratedDatabase } from '../db/client.ts';
import { undoMerge } from '../db/graph-merges.ts';
import { canonicalizeWithConfiguredEmbedder } from '../graph/canonicalize.ts';
import { buildGraph } from '../graph/build.ts';
import { configuredTupleExtractor } from '../graph/select.ts';
import { createNeo4jGraphStore, neo4jDriver } from '../graph/stores/neo4j.ts';
import { writeNeo4jRetrievalLayer } from '../retrieval/graph-sources/neo4j.ts';
import { syncGraphToStore } from '../graph/sync.ts';

const usage = `usage: npm run graph:build     extract tuples and entities from the structured records (incremental)
       npm run graph:sync      push the graph from the relational database to Neo4j (NEO4J_URI) and index it for retrieval
       npm run graph:undo-merge -- <entity key>   make a merged entity its own again`;

async function main() {
  const [what] = process.argv.slice(2);
  const cfg = config();
  const db = await openMigratedDatabase(cfg);
  try {
    if (what === 'build') {
      const r = await buildGraph(db, {
        extractor: configuredTupleExtractor(db, cfg),
        onProgress: (n) => n % 500 === 0 && process.stderr.write(`progress: ${n} papers\n`),
      });
      console.log(
        `graph built in ${r.seconds.toFixed(1)} s (read ${r.phases.readSeconds.toFixed(1)} s, extract ${r.phases.extractSeconds.toFixed(1)} s, write ${r.phases.writeSeconds.toFixed(1)} s): ${r.papersExtracted} of ${r.papersSeen} papers (re)extracted, ${r.tuplesWritten} tuples written, ${r.orphansRemoved.tuples} orphan tuples and ${r.orphansRemoved.entities} unused entities removed`,
      );
      if (r.failures.length) {
        console.log(`${r.failures.length} papers could not be read (kept their previous tuples; retried next run):`);
        for (const f of r.failures.slice(0, 5)) console.log(`  ${f}`);
        process.exitCode = 1;
      }
      console.log(`graph now holds ${r.counts.entities} entities and ${r.counts.tuples} tuples (${r.counts.causal} causal)`);
      const c = await canonicalizeWithConfiguredEmbedder(db, cfg);
      console.log(
        `canonical entities: ${c.names} names in ${c.clusters} clusters (${c.multiMember} with more than one name), ${c.merged} merges recorded, ${c.seconds.toFixed(1)} s`,
      );
      for (const s of c.sample) console.log(`  ${s.label} ← ${s.members.join(' | ')}`);
    } else if (what === 'undo-merge') {
      const key = process.argv[3];
      const r = key ? await undoMerge(db, key) : { count: 0 };
      console.log(r.count ? `${key} is its own entity again` : `no entity with key ${key ?? '(none given)'}`);
      if (!r.count) process.exitCode = 1;
    } else if (what === 'sync') {
      if (!cfg.neo4j) {
        console.log('no Neo4j is configured (NEO4J_URI): the embedded store already reads the relational tables; nothing to push');
        return;
      }
      const driver = neo4jDriver(cfg.neo4j);
      const database = cfg.neo4j.database ?? undefined;
      const store = createNeo4jGraphStore(driver, { database });
      try {
        const pushed = await syncGraphToStore(db, store);
        const c = await store.counts();
        console.log(
          `pushed ${pushed.entities} entities and ${pushed.tuples} tuples to Neo4j in ${pushed.seconds.toFixed(1)} s; it now holds ${c.entities} entities and ${c.tuples} tuples`,
        );
        const layer = await writeNeo4jRetrievalLayer(driver, db, { database });
        console.log(
          `retrieval layer: terms of ${layer.tuples} tuples under a full-text index, ${layer.canonicalEntities} canonical entities, ${layer.seconds.toFixed(1)} s (entity vectors are written by the first graph question, for the embedder it uses)`,
        );
      } finally {
        await store.close();
      }
    } else {
      console.error(usage);
      process.exitCode = 2;
    }
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
