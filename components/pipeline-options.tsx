/** A pipeline as a picker shows it: its plain label and line where it has them, else its name and description. */
export interface PipelineChoice {
  name: string;
  description: string;
  label?: string;
  line?: string;
}

/** The options of a pipeline picker: each pipeline by its plain label, its description as the tooltip. */
export function PipelineOptions({ pipelines }: { pipelines: PipelineChoice[] }) {
  return pipelines.map((p) => (
    <option key={p.name} value={p.name} title={p.description}>
      {p.label ?? p.name}
    </option>
  ));
}

/**
 * The options of an answer-mode picker: the configured model (or extractive), and with a model, extractive and the
 * model baselines. Without one the only answer is extractive, offered once.
 */
export function AnswerModeOptions({ modelId }: { modelId: string | null }) {
  return (
    <>
      <option value="auto">{modelId ? `model (${modelId})` : 'extractive (no model configured)'}</option>
      {modelId && <option value="extractive">extractive, no model</option>}
      {modelId && <option value="model-only">baseline: model only, no retrieval</option>}
      {modelId && <option value="naive-kg">baseline: graph tuples pasted in (naive KG)</option>}
    </>
  );
}

/** What the chosen pipeline does, in a line under the picker (its name alone says little to a newcomer). */
export function PipelineHint({ pipelines, chosen }: { pipelines: PipelineChoice[]; chosen: string }) {
  const p = pipelines.find((x) => x.name === chosen);
  const text = p ? (p.line ?? p.description) : chosen === 'compare' ? 'asks two or three pipelines at once and shows their answers side by side' : null;
  if (!text) return null;
  return (
    <p className="w-full text-xs text-slate-600" data-testid="pipeline-hint" aria-live="polite">
      <span className="font-medium">{p?.label ?? chosen}</span>: {text}
    </p>
  );
}
