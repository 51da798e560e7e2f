import Link from 'next/link';
import { AskWorkspace } from '@/components/ask-workspace';
import { DatabaseUnavailable } from '@/components/database-unavailable';
import { DEFAULT_ANSWER_PIPELINE } from '@/lib/services/vocabulary';
import { SYNTHESIS_METHODS } from '@/lib/services/vocabulary';
import { askScreen } from '@/lib/services/answers';
import { pipelineList } from '@/lib/services/vocabulary';

export const dynamic = 'force-dynamic';

/** The home page: ask a question and watch the cited answer arrive; the last questions asked, to reopen. */
export default async function Home() {
  let screen: Awaited<ReturnType<typeof askScreen>>;
  try {
    screen = await askScreen({ recent: 5 });
  } catch (error) {
    return <DatabaseUnavailable message={(error as Error).message} />;
  }
  const { recent } = screen;
  return (
    <div className="space-y-5">
      <h1 className="text-2xl font-semibold">Ask the literature</h1>
      <p className="text-sm text-slate-700">
        Every sentence of the answer cites the paragraph, record or graph tuple it rests on and is checked against it; when the corpus does not support an
        answer, Assay says so and what it does hold.
      </p>
      <AskWorkspace
        pipelines={pipelineList}
        defaultPipeline={DEFAULT_ANSWER_PIPELINE}
        modelId={screen.modelId}
        examples={screen.examples}
        choices={{ domains: screen.domains, methods: SYNTHESIS_METHODS.filter((m) => m !== 'others') }}
      />
      {recent.length > 0 && (
        <section aria-label="Recent questions" className="space-y-1 text-sm">
          <h2 className="font-medium text-slate-700">Recent questions</h2>
          <ul className="space-y-1">
            {recent.map((a) => (
              <li key={a.id}>
                <Link href={`/answers/${a.id}`} className="text-teal-800 hover:underline">
                  {a.question}
                </Link>{' '}
                <span className="text-xs text-slate-500">{a.abstained ? 'not answered' : a.shape}</span>
              </li>
            ))}
          </ul>
          <Link href="/answers" className="text-xs text-teal-800 hover:underline">
            All questions asked →
          </Link>
        </section>
      )}
    </div>
  );
}
