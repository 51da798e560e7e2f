import type { PipelineName } from '../pipelines/registry.ts';
import type { RetrieveOptions } from '../pipelines/types.ts';
import { appContext } from './app.ts';

/*
 * Raw retrievals (the Find evidence screen and /api/retrieve). A module of its own, importing little beside the
 * retrieval service: its route is the first a restart's question reaches, and what the route loads (the answer
 * model's SDK, provenance, stored answers, had it lived in answers.ts) comes before that answer.
 */

/** One pipeline's retrieval for a question (the Find evidence screen), with what the index is. */
export async function retrieveEvidence(question: string, pipeline: PipelineName, opts: Pick<RetrieveOptions, 'k' | 'mode' | 'signal' | 'client'>) {
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
