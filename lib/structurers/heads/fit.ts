import path from 'node:path';
import { headFeatures, type HeadInputs, type HeadWeights, type ParagraphHeadTask } from './head.ts';
import { MENTION_FEATURES_VERSION, mentionTrainingRows, type MentionGoldParagraph } from './material-tagger.ts';
import { headsId, type MaterialTaggerWeights, materialTaggerId, type StructuringHeads } from './store.ts';
import { readGold, readMentionGold, readRecordExcerpts, type LabelledParagraph, type TrainingSources } from './training-data.ts';
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
export function trainingRows(sources: TrainingSources, recordsPerMethod = RECORD_ROWS_PER_METHOD): Record<ParagraphHeadTask, LabelledParagraph[]> {
  const rows: Record<ParagraphHeadTask, LabelledParagraph[]> = { 'paragraph-role': [], 'synthesis-method': [] };
  for (const g of sources.gold) if (g.task !== 'material-role') rows[g.task].push(...readGold(g.file));
  if (sources.records && recordsPerMethod > 0) rows['synthesis-method'].push(...readRecordExcerpts(sources.records, 'train', recordsPerMethod));
  return rows;
}

/** One head fitted on `rows` (their vectors from `vectors`, by text). */
export async function fitHead(
  task: ParagraphHeadTask,
  inputs: HeadInputs,
  rows: LabelledParagraph[],
  vectors: Map<string, ArrayLike<number>>,
): Promise<HeadWeights> {
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

/** The tagger's learner settings, chosen on the KIST dev folds (micro-F1 0.806–0.819 over L2 0.01/0.001 and 30/60 epochs). */
export const MATERIAL_TAGGER_TRAINING = { l2: 0.001, epochs: 60 };

/** The material tagger fitted on gold paragraphs with their materials. */
export async function fitMaterialTaggerOn(paragraphs: MentionGoldParagraph[]) {
  return trainHead('material-role', 'mention-features', mentionTrainingRows(paragraphs), MATERIAL_TAGGER_TRAINING);
}

/** The deployed material tagger, fitted on every gold file of the sources that lists materials (re-ner files). */
export async function fitMaterialTagger(sources: TrainingSources): Promise<MaterialTaggerWeights> {
  const files = sources.gold.filter((g) => g.task === 'material-role');
  if (files.length === 0) throw new Error('training the material tagger needs paragraphs with their materials (a re-ner gold file)');
  const read = files.map((g) => ({ task: g.task, source: path.basename(g.file), paragraphs: readMentionGold(g.file) }));
  const weights = await fitMaterialTaggerOn(read.flatMap((r) => r.paragraphs));
  return {
    id: materialTaggerId(weights, MENTION_FEATURES_VERSION),
    features: MENTION_FEATURES_VERSION,
    trainedAt: new Date().toISOString(),
    sources: read.map((r) => ({ task: r.task, source: r.source, rows: r.paragraphs.length })),
    weights,
  };
}
