import { type SearchParams, textParam } from '@/lib/common/params';
import Link from 'next/link';
import { AskForm } from '@/components/ask-form';
import { askAction } from './actions';
import { DatabaseUnavailable } from '@/components/database-unavailable';
import { pipelineList } from '@/lib/services/vocabulary';
import { answerModelId, recentAnswers } from '@/lib/services/answers';

export const dynamic = 'force-dynamic';

/** Ask a question and get a cited answer; every answer asked so far, searchable, each at its own URL. */
export default async function AnswersPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const q = textParam(sp.q, 200);
  let answers: Awaited<ReturnType<typeof recentAnswers>>;
  try {
    answers = await recentAnswers({ query: q || undefined, take: 50 });
  } catch (error) {
    return <DatabaseUnavailable message={(error as Error).message} />;
  }
  const modelId = await answerModelId();
  return (
    <div className="space-y-5">
      <h1 className="text-2xl font-semibold">Answers</h1>
      <p className="text-sm text-slate-700">
        Ask a question: the answer cites the paragraphs and graph tuples it rests on, each sentence checked against what it cites, and says so when the corpus
        does not support one.
      </p>
      <AskForm pipelines={pipelineList} modelId={modelId} askAction={askAction} />
      <section aria-label="Asked before" className="space-y-2">
        <form action="/answers" method="get" className="flex gap-2">
          <input
            name="q"
            defaultValue={q}
            placeholder="Search past questions"
            aria-label="Search past questions"
            className="flex-1 rounded border border-slate-300 px-3 py-1.5 text-sm"
          />
          <button type="submit" className="rounded border border-slate-300 px-3 text-sm">
            Search
          </button>
        </form>
        {answers.length === 0 ? (
          <p className="text-sm text-slate-600">{q ? 'No past question matches.' : 'No questions asked yet.'}</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white" data-testid="answer-history">
            {answers.map((a) => (
              <li key={a.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
                <Link href={`/answers/${a.id}`} className="text-teal-800 hover:underline">
                  {a.question}
                </Link>
                <span className="shrink-0 text-xs text-slate-500">
                  {a.abstained ? 'not answered' : a.shape} · {a.mode} · {a.pipeline} · {a.createdAt.toLocaleString('en')}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
