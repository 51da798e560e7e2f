import type { AskBody, AskResponse, RecentAnswersResponse } from '@/app/api/answers/contract';
import type { StoredAnswerResponse } from '@/app/api/answers/[id]/contract';
import type { StarterCorpusResponse } from '@/app/api/corpus/fetch/contract';
import type { EvaluationRunsResponse, StartEvaluationBody, StartEvaluationResponse } from '@/app/api/evaluation/runs/contract';
import type { EvaluationRunResponse } from '@/app/api/evaluation/runs/[id]/contract';
import type { SaveGradeBody, SaveGradeResponse } from '@/app/api/grading/[id]/grades/contract';
import type { AnswerGraphQuery, AnswerGraphResponse } from '@/app/api/graph/answer/contract';
import type { NeighbourhoodQuery, NeighbourhoodResponse } from '@/app/api/graph/neighbourhood/contract';
import type { ImportStatusResponse } from '@/app/api/import/status/contract';
import type { ImportRunsResponse } from '@/app/api/ingest-runs/contract';
import type { ImportRunResponse } from '@/app/api/ingest-runs/[id]/contract';
import type { ResumeImportResponse } from '@/app/api/ingest-runs/[id]/resume/contract';
import type { JobsResponse } from '@/app/api/jobs/contract';
import type { ProvenanceQuery, ProvenanceResponse } from '@/app/api/provenance/contract';
import type { RetrieveBody, RetrieveResponse } from '@/app/api/retrieve/contract';

type Id = { id: string };

/**
 * The JSON routes the components call, by method and path, with what each takes and answers: the types come from
 * the contract beside each route handler (app/api/<route>/contract.ts), so a change there shows here and in every
 * caller at type-check time.
 */
export interface ApiRoutes {
  'GET /api/answers': { query: { q?: string }; response: RecentAnswersResponse };
  'POST /api/answers': { body: AskBody; response: AskResponse };
  'GET /api/answers/[id]': { params: Id; response: StoredAnswerResponse };
  'POST /api/corpus/fetch': { response: StarterCorpusResponse };
  'GET /api/evaluation/runs': { response: EvaluationRunsResponse };
  'POST /api/evaluation/runs': { body: StartEvaluationBody; response: StartEvaluationResponse };
  'GET /api/evaluation/runs/[id]': { params: Id; response: EvaluationRunResponse };
  'PUT /api/grading/[id]/grades': { params: Id; body: SaveGradeBody; response: SaveGradeResponse };
  'GET /api/graph/answer': { query: AnswerGraphQuery; response: AnswerGraphResponse };
  'GET /api/graph/neighbourhood': { query: NeighbourhoodQuery; response: NeighbourhoodResponse };
  'GET /api/import/status': { response: ImportStatusResponse };
  'GET /api/ingest-runs': { response: ImportRunsResponse };
  'GET /api/ingest-runs/[id]': { params: Id; response: ImportRunResponse };
  'POST /api/ingest-runs/[id]/resume': { params: Id; body: Record<string, never>; response: ResumeImportResponse };
  'GET /api/jobs': { response: JobsResponse };
  'GET /api/provenance': { query: ProvenanceQuery; response: ProvenanceResponse };
  'POST /api/retrieve': { body: RetrieveBody; response: RetrieveResponse };
}

export type ApiRoute = keyof ApiRoutes;
type Input<R extends ApiRoute> = Omit<ApiRoutes[R], 'response'>;

/** A route's refusal: its status and the message the server gave (`{ error }`), or `failure (status)` without one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Calls a JSON route: path parameters filled in, the query written out (a list as a repeated parameter), the body
 * sent as JSON. Resolves with the route's response type; a refusal throws an ApiError with the server's message
 * (`failure` words it when the server gave none, e.g. "the graph failed to load").
 */
export async function callApi<R extends ApiRoute>(
  route: R,
  ...[input, options]: keyof Input<R> extends never
    ? [input?: Record<string, never>, options?: { signal?: AbortSignal; failure?: string }]
    : [input: Input<R>, options?: { signal?: AbortSignal; failure?: string }]
): Promise<ApiRoutes[R]['response']> {
  const [method, template] = route.split(' ') as [string, string];
  const given = (input ?? {}) as { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown };
  const path = template.replace(/\[(\w+)\]/g, (_, name: string) => encodeURIComponent(given.params?.[name] ?? ''));
  const res = await fetch(`${path}${queryString(given.query)}`, {
    method,
    ...(given.body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(given.body) }),
    signal: options?.signal,
  });
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const said = json && typeof json === 'object' && 'error' in json && typeof json.error === 'string' ? json.error : null;
    throw new ApiError(res.status, said ?? `${options?.failure ?? 'the server answered'} (${res.status})`);
  }
  // The one place a response is taken at its word: the route's contract gives its type, the route handler builds it.
  return json as ApiRoutes[R]['response'];
}

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const sp = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) sp.append(name, String(v));
  }
  const s = sp.toString();
  return s ? `?${s}` : '';
}
