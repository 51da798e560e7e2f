import type { AssayConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { saveAnswer } from '../db/answers.ts';
import { paperIdsMatching } from '../db/papers.ts';
import { type PaperFilters, parseCondition, resolvePaperFilters } from '../structure/paper-filters.ts';
import { AppError } from '../common/errors.ts';
import type { QuestionScope } from '../retrieval/scope.ts';
import type { PipelineName } from '../pipelines/registry.ts';
import type { RetrievalService } from '../serving/retrieval-service.ts';
import { type AnswerEvents, answerQuestion } from './answer.ts';
import { type AnswerModeChoice, answerSetup } from './modes.ts';
import { type Answer, answerText } from './types.ts';
import { databaseLookups } from './lookups.ts';
import { storedPayload } from './stored.ts';

/** Filters that scope a question to some papers: a domain, a material in any spelling, a method, a condition range. */
export type AskFilters = Pick<PaperFilters, 'domain' | 'material' | 'method' | 'condition'>;

export interface AskInput {
  question: string;
  pipeline?: PipelineName;
  mode?: AnswerModeChoice;
  filters?: AskFilters;
}

/** The filters as a reader sees them: "domain sofc · material YSZ · condition 600–800 °C". */
export function describeFilters(f: AskFilters): string {
  return (['domain', 'material', 'method', 'condition'] as const)
    .filter((k) => f[k]?.trim())
    .map((k) => `${k} ${f[k]!.trim()}`)
    .join(' · ');
}

/** The papers the filters admit, as a retrieval scope; undefined when no filter is set. */
export async function resolveScope(db: Database, filters: AskFilters | undefined): Promise<QuestionScope | undefined> {
  if (!filters) return undefined;
  const description = describeFilters(filters);
  if (!description) return undefined;
  if (filters.condition?.trim() && !parseCondition(filters.condition))
    throw new AppError(
      'bad-request',
      `could not read the condition "${filters.condition.trim()}": write a value or range with its unit, e.g. 600–800 °C or ≥ 1073 K`,
    );
  const ids = await paperIdsMatching(db.prisma, resolvePaperFilters(filters));
  return ids ? { paperIds: new Set(ids), description } : undefined;
}

/** Answers a question on the app's index with the configured model (or none) and stores the answer. */
export async function askAndStore(
  db: Database,
  service: RetrievalService,
  cfg: AssayConfig,
  input: AskInput,
  opts: { events?: AnswerEvents; signal?: AbortSignal; client?: string; background?: boolean } = {},
): Promise<{ id: string; answer: Answer }> {
  const scope = await resolveScope(db, input.filters);
  // Through the service: its retrieval workers when it has them.
  const answer = await answerQuestion((q, p, o) => service.retrieve(q, p, o), input.question, {
    ...service.options,
    ...answerSetup(cfg, input.mode),
    pipeline: input.pipeline,
    scope,
    ...databaseLookups(db.prisma),
    events: opts.events,
    signal: opts.signal,
    client: opts.client,
    background: opts.background,
  });
  return { id: await saveAnswer(db, storedPayload(answer), answerText(answer)), answer };
}
