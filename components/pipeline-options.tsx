/** The options of a pipeline picker: each pipeline by name, its description as the tooltip. */
export function PipelineOptions({ pipelines }: { pipelines: { name: string; description: string }[] }) {
  return pipelines.map((p) => (
    <option key={p.name} value={p.name} title={p.description}>
      {p.name}
    </option>
  ));
}

/** The options of an answer-mode picker: the configured model (or extractive), extractive, and the model baselines. */
export function AnswerModeOptions({ modelId }: { modelId: string | null }) {
  return (
    <>
      <option value="auto">{modelId ? `model (${modelId})` : 'extractive (no model configured)'}</option>
      <option value="extractive">extractive, no model</option>
      {modelId && <option value="model-only">baseline: model only, no retrieval</option>}
      {modelId && <option value="naive-kg">baseline: graph tuples pasted in (naive KG)</option>}
    </>
  );
}
