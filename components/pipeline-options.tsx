/** The options of a pipeline picker: each pipeline by name, its description as the tooltip. */
export function PipelineOptions({ pipelines }: { pipelines: { name: string; description: string }[] }) {
  return pipelines.map((p) => (
    <option key={p.name} value={p.name} title={p.description}>
      {p.name}
    </option>
  ));
}
