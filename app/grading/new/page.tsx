import { CampaignForm } from '@/components/campaign-form';
import { NeedsRole } from '@/components/needs-role';
import { currentViewer } from '@/app/current-viewer';
import { may } from '@/lib/services/access';
import { campaignFormChoices } from '@/lib/services/grading';
import { RUBRIC_IDS, RUBRICS } from '@/lib/services/vocabulary';
import { createCampaignAction } from '../actions';
import { pipelineList } from '@/lib/services/vocabulary';

export const dynamic = 'force-dynamic';

export default async function NewCampaignPage() {
  const viewer = await currentViewer();
  if (!may(viewer, 'campaigns')) return <NeedsRole needs="admin" what="Creating a campaign" signedIn={!!viewer.user} />;
  const { users, history } = await campaignFormChoices();
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">New grading campaign</h1>
      <CampaignForm
        createCampaignAction={createCampaignAction}
        rubrics={RUBRIC_IDS.map((id) => ({ id, label: RUBRICS[id].label, summary: RUBRICS[id].summary }))}
        pipelines={pipelineList}
        graders={users.filter((u) => u.role === 'expert' || u.role === 'admin').map((u) => ({ id: u.id, label: `${u.name} <${u.email}> (${u.role})` }))}
        history={[...new Set(history.map((a) => a.question))].slice(0, 50)}
      />
    </div>
  );
}
