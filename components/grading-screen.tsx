'use client';

import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { GraderItemView } from '@/lib/grading/grader-view';
import { AnswerView } from './answer-view';
import { useGradeAutosave } from './grade-autosave';
import { type KeyAction, useGradingKeys } from './grading-keys';
import { ClaimMarks, EvidenceFlagControl, GradingHeader, Guidelines, PreferenceField, ScoreRow } from './grading-parts';

/**
 * The grading screen: one item, its answers blind (A, B … in this grader's order), the rubric with its guidelines,
 * per-claim marks and evidence flags. Keyboard first (grading-keys.ts); every change is autosaved, and kept in the
 * browser while the server cannot be reached (grade-autosave.ts).
 */
export function GradingScreen({ view }: { view: GraderItemView }) {
  const router = useRouter();
  const { campaign, item, answers, queue } = view;
  const rubric = campaign.rubric;
  const readOnly = campaign.status !== 'open';
  const grade = useGradeAutosave({
    campaignId: campaign.id,
    itemId: item.id,
    ordinal: item.ordinal,
    readOnly,
    initial: { marks: view.marks, revision: view.revision, submitted: view.submitted },
  });
  const { marks, update } = grade;
  const [guidelines, setGuidelines] = useState(false);
  // Focus as of the last key, not the last render: keys typed faster than React renders ("1", "1", Enter) must
  // score the criterion the previous key moved to.
  const [shownFocus, setShownFocus] = useState({ answer: 0, criterion: 0 });
  const focus = useRef(shownFocus);
  const moveFocus = useCallback((answer: number, criterion: number) => {
    focus.current = { answer, criterion };
    setShownFocus(focus.current);
  }, []);
  // Set once the screen is interactive (its key handler attached), so a browser test knows when keys will count.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);

  const position = queue.findIndex((q) => q.ordinal === item.ordinal);
  const nextOrdinal = queue[position + 1]?.ordinal;
  const previousOrdinal = position > 0 ? queue[position - 1].ordinal : undefined;
  const goTo = async (ordinal: number | undefined) => {
    if (ordinal === undefined || !(await grade.flush())) return;
    router.push(`/grading/${campaign.id}/grade?item=${ordinal + 1}`);
  };
  const submit = async () => {
    if (!(await grade.submitNow())) return;
    const nextOpen = queue.slice(position + 1).find((q) => q.state !== 'submitted') ?? queue.find((q, i) => i !== position && q.state !== 'submitted');
    if (nextOpen) router.push(`/grading/${campaign.id}/grade?item=${nextOpen.ordinal + 1}`);
    else router.refresh();
  };
  const setScore = (answerIndex: number, criterionIndex: number, value: number) => {
    const c = rubric.criteria[criterionIndex];
    const a = answers[answerIndex];
    if (!c || !a || value < c.min || value > c.max) return;
    update((m) => ({ ...m, scores: { ...m.scores, [a.id]: { ...m.scores[a.id], [c.id]: value } } }));
  };
  const prefer = (winner: string) => update((m) => ({ ...m, preference: { winner, reason: m.preference?.reason ?? '' } }));

  useGradingKeys(
    () => ({ criteria: rubric.criteria, answers: answers.length, pairwise: !!rubric.pairwise, focus: focus.current }),
    (action: KeyAction) => {
      if (action.kind === 'score') {
        setScore(action.answer, action.criterion, action.value);
        moveFocus(action.focus.answer, action.focus.criterion);
      } else if (action.kind === 'focus') moveFocus(action.answer, action.criterion);
      else if (action.kind === 'prefer') prefer(action.slot === 'tie' ? 'tie' : (answers[action.slot === 'a' ? 0 : 1]?.id ?? 'tie'));
      else if (action.kind === 'next') void goTo(nextOrdinal);
      else if (action.kind === 'previous') void goTo(previousOrdinal);
      else if (action.kind === 'submit') void submit();
      else setGuidelines((g) => !g);
    },
  );

  const done = queue.filter((q) => q.ordinal !== item.ordinal && q.state === 'submitted').length + (grade.submitted ? 1 : 0);
  return (
    <div className="space-y-4" data-testid="grading-screen" data-ready={ready}>
      <GradingHeader
        campaign={campaign}
        position={position}
        total={queue.length}
        done={done}
        save={grade.save}
        readOnly={readOnly}
        submitted={grade.submitted}
      />
      {grade.message && (
        <p role="alert" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {grade.message}
        </p>
      )}
      <h1 className="text-xl font-semibold" data-testid="grading-question">
        {item.question}
      </h1>
      <Guidelines rubric={rubric} open={guidelines} onToggle={setGuidelines} />
      <div className={`grid gap-4 ${answers.length > 1 ? 'lg:grid-cols-2' : ''}`}>
        {answers.map((a, ai) => (
          <section
            key={a.id}
            aria-label={`Answer ${a.slot}`}
            data-testid="blind-answer"
            className={`space-y-3 rounded border bg-white p-4 ${ai === shownFocus.answer ? 'border-teal-600 ring-1 ring-teal-600' : 'border-slate-200'}`}
          >
            <h2 className="text-lg font-semibold">Answer {a.slot}</h2>
            {!rubric.pairwise && (
              <fieldset className="space-y-1">
                <legend className="sr-only">Scores of answer {a.slot}</legend>
                {rubric.criteria.map((c, ci) => (
                  <ScoreRow
                    key={c.id}
                    criterion={c}
                    slot={a.slot}
                    value={marks.scores[a.id]?.[c.id]}
                    focused={ai === shownFocus.answer && ci === shownFocus.criterion}
                    readOnly={readOnly}
                    onScore={(v) => {
                      moveFocus(ai, ci);
                      setScore(ai, ci, v);
                    }}
                  />
                ))}
              </fieldset>
            )}
            <AnswerView
              answer={a.answer}
              blind
              claimExtra={(si) => (
                <ClaimMarks
                  sentence={si}
                  slot={a.slot}
                  mark={marks.claims[a.id]?.[String(si)]}
                  readOnly={readOnly}
                  onMark={(mark) =>
                    update((m) => {
                      const claims = { ...m.claims[a.id] };
                      if (mark) claims[String(si)] = mark;
                      else delete claims[String(si)];
                      return { ...m, claims: { ...m.claims, [a.id]: claims } };
                    })
                  }
                />
              )}
              annotate={(e) => (
                <EvidenceFlagControl
                  disabled={readOnly}
                  flagged={marks.flags.filter((f) => f.answerId === a.id && f.evidenceId === e.id)}
                  onFlag={(kind, comment) => update((m) => ({ ...m, flags: [...m.flags, { answerId: a.id, evidenceId: e.id, kind, comment }] }))}
                  onRemove={() => update((m) => ({ ...m, flags: m.flags.filter((f) => !(f.answerId === a.id && f.evidenceId === e.id)) }))}
                />
              )}
            />
          </section>
        ))}
      </div>
      {rubric.pairwise && (
        <PreferenceField
          answers={answers}
          winner={marks.preference?.winner}
          reason={marks.preference?.reason ?? ''}
          readOnly={readOnly}
          onPrefer={prefer}
          onReason={(reason) => update((m) => ({ ...m, preference: { winner: m.preference?.winner ?? 'tie', reason } }))}
        />
      )}
      <label className="block text-sm">
        Comment (optional)
        <textarea
          value={marks.comment}
          disabled={readOnly}
          onChange={(e) => {
            const comment = e.target.value;
            update((m) => ({ ...m, comment }));
          }}
          className="mt-1 w-full rounded border border-slate-300 p-2"
          rows={2}
        />
      </label>
      <div className="flex items-center gap-3">
        <button
          type="button"
          onClick={() => void goTo(previousOrdinal)}
          disabled={previousOrdinal === undefined}
          className="rounded border border-slate-300 px-3 py-1 text-sm disabled:opacity-40"
        >
          ← Previous (p)
        </button>
        <button
          type="button"
          onClick={() => void submit()}
          disabled={readOnly}
          className="rounded bg-teal-700 px-4 py-1.5 text-sm font-medium text-white disabled:opacity-50"
        >
          Submit (Enter)
        </button>
        <button
          type="button"
          onClick={() => void goTo(nextOrdinal)}
          disabled={nextOrdinal === undefined}
          className="rounded border border-slate-300 px-3 py-1 text-sm disabled:opacity-40"
        >
          Next (n) →
        </button>
      </div>
    </div>
  );
}
