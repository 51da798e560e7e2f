import Link from 'next/link';
import { notFound } from 'next/navigation';
import { AnswerView } from '@/components/answer-view';
import { LookForPapers } from '@/components/look-for-papers';
import { storedAnswer } from '@/lib/services/answers';
import { paperSearchOffer } from '@/lib/services/paper-search';
import { lookForPapersAction } from '@/app/found/actions';

export const dynamic = 'force-dynamic';

const backToAnswers = (
  <p className="text-sm">
    <Link href="/answers" className="text-teal-800 hover:underline">
      ← Answers
    </Link>
  </p>
);

/** A stored answer at its own URL, as it was given. */
export default async function AnswerPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  if (!/^[a-z0-9]{10,40}$/i.test(id)) notFound();
  const answer = await storedAnswer(id);
  if (!answer) notFound();
  if (!answer.readable)
    return (
      <div className="space-y-4">
        {backToAnswers}
        <h1 className="text-xl font-semibold">{answer.question ?? 'A stored answer'}</h1>
        <p role="alert" className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" data-testid="unreadable-answer">
          This answer cannot be shown: {answer.problem}. Ask the question again for an answer from the current corpus.
        </p>
      </div>
    );
  const offer = await paperSearchOffer(id, answer);
  return (
    <div className="space-y-4">
      {backToAnswers}
      <h1 className="text-xl font-semibold">{answer.question}</h1>
      <p className="text-xs text-slate-500">
        Asked {answer.createdAt.toLocaleString('en')}
        {answer.migratedFrom !== null && ` · stored in an earlier answer format (${answer.migratedFrom}), read in today's`}
      </p>
      <AnswerView
        answer={answer}
        notices={answer.notices}
        offer={offer.offered && <LookForPapers answerId={id} enabled={offer.enabled} earlier={offer.earlier} action={lookForPapersAction} />}
      />
    </div>
  );
}
