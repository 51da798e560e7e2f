import { storedAnswerOf } from '../answer/stored.ts';
import { campaignItemsWithGrades, getCampaign } from '../db/campaigns.ts';
import type { Database } from '../db/database.ts';
import { type CampaignResults, campaignResults } from './results.ts';
import type { RubricId } from './rubrics.ts';

/** A stored campaign's results (what the results page, the export and the CLI show). Null: no such campaign. */
export async function storedCampaignResults(db: Database, campaignId: string): Promise<{ results: CampaignResults; graderNames: Map<string, string> } | null> {
  const campaign = await getCampaign(db, campaignId);
  if (!campaign) return null;
  const items = await campaignItemsWithGrades(db, campaignId);
  const results = campaignResults({
    rubric: campaign.rubric as RubricId,
    pipelines: campaign.pipelines,
    items: items.map((i) => ({
      id: i.id,
      ordinal: i.ordinal,
      question: i.question,
      type: i.type,
      answers: i.answers.map((a) => ({ id: a.id, pipeline: a.pipeline, answer: storedAnswerOf(a.answer) })),
      grades: i.grades.map((g) => ({ graderId: g.graderId, judge: g.judge, submitted: g.submitted, marks: g.marks })),
    })),
  });
  const graderNames = new Map(campaign.graders.map((g) => [g.userId, g.user.name]));
  return { results, graderNames };
}
