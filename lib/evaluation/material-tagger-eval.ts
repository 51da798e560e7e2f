import { extractSynthesisEntities, type MentionTagger } from '../structure/entities.ts';
import { fitMaterialTaggerOn } from '../structurers/heads/fit.ts';
import { materialTagger, type MentionGoldParagraph } from '../structurers/heads/material-tagger.ts';
import { type ClassificationReport, entityReport } from './classification-metrics.ts';
import { foldOf } from './structurer-eval.ts';

/**
 * The materials' roles side by side on gold paragraphs: the rules alone, and the trained tagger over the rules'
 * candidates, cross-validated with folds by paper (the tagger fitted on the other folds' paragraphs only).
 */
export interface MaterialTaggerScores {
  structurer: 'rules' | 'tagger';
  report: ClassificationReport;
  /** The role with the lowest F1: where its gold materials went (another role, or "missed") and whose it took. */
  worst: { label: string; f1: number; predictedAs: Record<string, number>; takenFrom: Record<string, number> };
}

type Entity = { type: string; key: string };

const entitiesOf = (p: MentionGoldParagraph, tagger?: MentionTagger): Entity[] =>
  extractSynthesisEntities(p.text, tagger).map((e) => ({ type: e.role, key: e.key }));

export async function crossValidateMaterialTagger(paragraphs: MentionGoldParagraph[], folds = 5): Promise<MaterialTaggerScores[]> {
  const gold = paragraphs.map((p) => p.entities.map((e) => ({ type: e.role, key: e.key })));
  const rules = paragraphs.map((p) => entitiesOf(p));
  const tagged: Entity[][] = [];
  for (let k = 0; k < folds; k++) {
    const test = paragraphs.map((p, i) => ({ p, i })).filter(({ p }) => foldOf(p.group, folds) === k);
    if (test.length === 0) continue;
    const tagger = materialTagger(await fitMaterialTaggerOn(paragraphs.filter((p) => foldOf(p.group, folds) !== k)));
    for (const { p, i } of test) tagged[i] = entitiesOf(p, tagger);
  }
  return [scores('rules', gold, rules), scores('tagger', gold, tagged)];
}

function scores(structurer: MaterialTaggerScores['structurer'], gold: Entity[][], predicted: Entity[][]): MaterialTaggerScores {
  const report = entityReport(gold.map((g, i) => ({ gold: g, predicted: predicted[i] })));
  const [label, m] = Object.entries(report.per_class)
    .filter(([, c]) => c.support > 0)
    .sort((a, b) => a[1].f1 - b[1].f1)[0];
  const predictedAs: Record<string, number> = {};
  const takenFrom: Record<string, number> = {};
  const bump = (into: Record<string, number>, key: string) => {
    into[key] = (into[key] ?? 0) + 1;
  };
  gold.forEach((g, i) => {
    const got = new Map<string, Set<string>>();
    for (const e of predicted[i]) got.set(e.key, (got.get(e.key) ?? new Set()).add(e.type));
    const want = new Map<string, Set<string>>();
    for (const e of g) want.set(e.key, (want.get(e.key) ?? new Set()).add(e.type));
    for (const e of g) if (e.type === label && !got.get(e.key)?.has(label)) bump(predictedAs, [...(got.get(e.key) ?? [])].join('+') || 'missed');
    for (const e of predicted[i])
      if (e.type === label && !want.get(e.key)?.has(label)) bump(takenFrom, [...(want.get(e.key) ?? [])].join('+') || 'not in the gold');
  });
  return { structurer, report, worst: { label, f1: m.f1, predictedAs, takenFrom } };
}
