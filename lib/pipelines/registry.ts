import { aria } from './aria.ts';
import { bm25 } from './bm25.ts';
import { graphKeyword } from './graph-keyword.ts';
import { graph } from './graph.ts';
import { hybrid } from './hybrid.ts';
import { jsonDense } from './json-dense.ts';
import { jsonQr } from './json-qr.ts';
import { rawDense } from './raw-dense.ts';
import { rawQr } from './raw-qr.ts';
import { records } from './records.ts';
import type { Pipeline } from './types.ts';
import { vector } from './vector.ts';

/**
 * Every retrieval pipeline, in the order the UI and the evaluation list them. Adding a pipeline: a file in this
 * folder exporting `definePipeline({...})`, and one line here.
 */
const REGISTRY = [bm25, rawDense, rawQr, jsonDense, jsonQr, vector, records, graph, graphKeyword, aria, hybrid] as const;

export type PipelineName = (typeof REGISTRY)[number]['name'];

export const PIPELINES: readonly PipelineName[] = REGISTRY.map((p) => p.name);

export function isPipelineName(s: string): s is PipelineName {
  return (PIPELINES as readonly string[]).includes(s);
}

export function getPipeline(name: PipelineName): Pipeline<PipelineName> {
  return REGISTRY.find((p) => p.name === name)!;
}

/** Name, plain label and line, and description of every pipeline, for pickers and help texts. */
export const pipelineList: { name: PipelineName; label: string; line: string; description: string }[] = REGISTRY.map((p) => ({
  name: p.name,
  label: p.label,
  line: p.line,
  description: p.description,
}));

export const pipelineDescriptions = Object.fromEntries(pipelineList.map((p) => [p.name, p.description])) as Record<PipelineName, string>;
