import { type SearchParams, textParam } from '@/lib/common/params';
import { RetrievePanel } from '@/components/retrieve-panel';
import { PIPELINES, pipelineList, QUESTION_MODES } from '@/lib/services/vocabulary';

export const dynamic = 'force-dynamic';

export default async function SearchPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold">Find evidence</h1>
        <p className="text-sm text-slate-600">
          Ask which paper reports a result, or for a value from a named paper; with the aria pipeline, ask how something affects something else, what a material
          made a given way would show (forward prediction) or how to reach a target property (inverse design). Every hit shows the paragraph it rests on, which
          of your materials, values and properties it states, and each retrieval step. No language model is involved unless one is configured.
        </p>
      </div>
      <RetrievePanel
        initialQuestion={textParam(sp.q, 2000)}
        initialPipeline={PIPELINES.find((p) => p === textParam(sp.pipeline)) ?? 'json-qr'}
        initialMode={QUESTION_MODES.find((m) => m === textParam(sp.mode)) ?? 'auto'}
        pipelines={pipelineList}
      />
    </div>
  );
}
