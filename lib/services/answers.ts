import { answerModel } from '../ai/providers.ts';
import { EXAMPLE_RELATIONS, exampleQuestions } from '../answer/examples.ts';
import { type ProvenanceRequest, provenanceDetails } from '../answer/provenance.ts';
import { getAnswer, listAnswers } from '../db/answers.ts';
import { exampleTuples } from '../db/graph-views.ts';
import { libraryFacets } from '../db/papers.ts';
import type { PipelineName } from '../pipelines/registry.ts';
import type { RetrieveOptions } from '../pipelines/types.ts';
import { appContext, appDatabase } from './app.ts';

/** Reading answers: the ask screen, stored answers, provenance of a cited item, raw retrievals (asking is ask.ts). */

/** What the ask screen offers: the answer model's name, example questions the corpus can answer, filter choices, recent questions. */
export async function askScreen(opts: { recent: number }) {
  const { db, cfg } = await appContext();
  const [recent, tuples, facets] = await Promise.all([listAnswers(db, { take: opts.recent }), exampleTuples(db, EXAMPLE_RELATIONS), libraryFacets(db.prisma)]);
  return { recent, examples: exampleQuestions(tuples), domains: facets.domains, modelId: answerModel(cfg)?.id ?? null };
}

/** The name of the model that writes answers (null: answers are extractive). */
export async function answerModelId(): Promise<string | null> {
  const { cfg } = await appContext();
  return answerModel(cfg)?.id ?? null;
}

/** The latest stored answers, newest first; those whose question contains `query` when given. */
export async function recentAnswers(opts: { query?: string; take?: number } = {}) {
  return listAnswers(await appDatabase(), opts);
}

/** A stored answer, as it was given; null when there is none. */
export async function storedAnswer(id: string) {
  return getAnswer(await appDatabase(), id);
}

/** What the provenance panel shows for one cited item. */
export async function provenance(req: ProvenanceRequest) {
  return provenanceDetails(await appDatabase(), req);
}

/** One pipeline's retrieval for a question (the Find evidence screen), with what the index is. */
export async function retrieveEvidence(question: string, pipeline: PipelineName, opts: Pick<RetrieveOptions, 'k' | 'mode' | 'signal'>) {
  const { retrieval } = await appContext();
  const result = await retrieval.retrieve(question, pipeline, opts);
  const index = await retrieval.info();
  return {
    result,
    index: {
      paragraphs: index.paragraphs,
      embedder: index.embedderId,
      ...(index.embedderNote ? { embedderNote: index.embedderNote } : {}),
      reformulator: retrieval.reformulator.id,
      buildSeconds: Math.round(index.buildSeconds * 10) / 10,
      vectorsIn: index.vectorsIn,
    },
  };
}
