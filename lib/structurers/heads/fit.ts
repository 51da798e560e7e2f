import { headFeatures, type HeadInputs, type HeadTask, type HeadWeights } from './head.ts';
import { headsId, type StructuringHeads } from './store.ts';
import { readGold, readRecordExcerpts, type LabelledParagraph, type TrainingSources } from './training-data.ts';
import { trainHead } from './train.ts';

/**
 * Record excerpts per method added to the method head's rows. Chosen on the KIST dev folds (macro-F1 of "both": 0.914
 * with none, 0.907 with 30, 0.913 with 100, 0.892 with 300; the records' held-out split 0.27, 0.62, 0.63, 0.67): excerpts
 * are fragments, and many of them outweigh the few whole paragraphs of the other five methods.
 */
export const RECORD_ROWS_PER_METHOD = 100;
/** Record excerpts per method in the records' held-out split that eval:extract scores. */
export const RECORD_HOLDOUT_PER_METHOD = 300;

export type Embed = (texts: string[]) => Promise<ArrayLike<number>[]>;

/** The rows of each head from the sources (records only for the method head). */
export function trainingRows(sources: TrainingSources, recordsPerMethod = RECORD_ROWS_PER_METHOD): Record<HeadTask, LabelledParagraph[]> {
  const rows: Record<HeadTask, LabelledParagraph[]> = { 'paragraph-role': [], 'synthesis-method': [] };
  for (const g of sources.gold) rows[g.task].push(...readGold(g.file));
  if (sources.records && recordsPerMethod > 0) rows['synthesis-method'].push(...readRecordExcerpts(sources.records, 'train', recordsPerMethod));
  return rows;
}

/** One head fitted on `rows` (their vectors from `vectors`, by text). */
export async function fitHead(task: HeadTask, inputs: HeadInputs, rows: LabelledParagraph[], vectors: Map<string, ArrayLike<number>>): Promise<HeadWeights> {
  return trainHead(
    task,
    inputs,
    rows.map((r) => ({ features: headFeatures(task, inputs, r.text, vectors.get(r.text)!), label: r.label })),
  );
}

/** Every distinct text's vector, embedded once. */
export async function vectorsOf(texts: string[], embed: Embed): Promise<Map<string, ArrayLike<number>>> {
  const unique = [...new Set(texts)];
  const vectors = await embed(unique);
  return new Map(unique.map((t, i) => [t, vectors[i]]));
}

/** The deployed heads (encoder and rules' scores) fitted on every row of the sources. */
export async function fitStructuringHeads(sources: TrainingSources, embed: Embed, encoder: string): Promise<StructuringHeads> {
  const rows = trainingRows(sources);
  if (rows['paragraph-role'].length === 0 || rows['synthesis-method'].length === 0)
    throw new Error('training the structuring heads needs labelled paragraphs for both the paragraph role and the synthesis method');
  const vectors = await vectorsOf(
    [...rows['paragraph-role'], ...rows['synthesis-method']].map((r) => r.text),
    embed,
  );
  const role = await fitHead('paragraph-role', 'encoder+rules', rows['paragraph-role'], vectors);
  const method = await fitHead('synthesis-method', 'encoder+rules', rows['synthesis-method'], vectors);
  const sources_: StructuringHeads['sources'] = [];
  for (const [task, list] of Object.entries(rows))
    for (const source of new Set(list.map((r) => r.source))) sources_.push({ task, source, rows: list.filter((r) => r.source === source).length });
  return { id: headsId(role, method), encoder, trainedAt: new Date().toISOString(), sources: sources_, role, method };
}
