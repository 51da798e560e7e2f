/**
 * The fixed words of the domain the screens offer and the routes accept: pipelines and question modes, paragraph
 * roles and synthesis methods, grading rubrics, the answer graph's limits, the request an answer starts from. The
 * app reaches these lib/ modules only through here (or the other services), so a screen's vocabulary has one door.
 */
export { DEFAULT_ANSWER_PIPELINE } from '../answer/answer.ts';
export { ANSWER_GRAPH_MAX_PARAGRAPHS, ANSWER_GRAPH_MAX_TUPLES } from '../answer/graph.ts';
export { askRequestSchema, questionText, requestProblem } from '../answer/request.ts';
export { describeFilters } from '../answer/service.ts';
export { answerStream } from '../answer/stream.ts';
export type { EvaluationSummary, ResultDetail } from '../evaluation/retrieval-eval.ts';
export type { PipelineMetrics } from '../evaluation/retrieval-metrics.ts';
export { assignedGraders } from '../grading/assignment.ts';
export type { Interval } from '../grading/bootstrap.ts';
export { marksSchema, RUBRIC_IDS, RUBRICS, type RubricId } from '../grading/rubrics.ts';
export { isPipelineName, PIPELINES, pipelineDescriptions, pipelineList } from '../pipelines/registry.ts';
export { QUESTION_MODES } from '../pipelines/types.ts';
export { PARAGRAPH_ROLES, SYNTHESIS_METHODS } from '../structure/classify.ts';
export { parseCondition } from '../structure/paper-filters.ts';
