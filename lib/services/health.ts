import { entityLinkCounts } from '../db/entity-links.ts';
import { metadataCounts } from '../db/paper-metadata.ts';
import { corpusCounts } from '../db/corpus-counts.ts';
import { warmingIndexes } from '../jobs/warming.ts';
import { semanticSearchProgress } from '../serving/semantic-search.ts';
import { appContext } from './app.ts';

/**
 * Whether the database answers, with what it holds, and the questions being retrieved and waiting their turn. A
 * module of its own, importing little: /api/health is what a restart is first asked, and what its route loads
 * comes before the first answer.
 */
export async function health() {
  const { db, retrieval } = await appContext();
  const questions = retrieval.options.admission?.load() ?? null;
  const workers = retrieval.workers();
  const [counts, metadata, entityLinks] = await Promise.all([corpusCounts(db), metadataCounts(db), entityLinkCounts(db)]);
  return {
    database: db.kind,
    ...counts,
    // Papers whose metadata Crossref and OpenAlex gave (ok), do not know (not-found), or could not give (error).
    metadata,
    // Graph entities linked to Wikidata, asked without a match, rejected by a curator, or failed.
    entityLinks,
    warmingIndexes: warmingIndexes(),
    // While the embedding model embeds the corpus for the first time: how far it has got (dense search runs on the
    // n-gram stand-in until then); null once semantic search is complete.
    semanticSearch: semanticSearchProgress(),
    ...(questions ? { questions } : {}),
    ...(workers ? { retrievalWorkers: workers } : {}),
  };
}
