'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useRef, useState } from 'react';
import { AnswerView } from './answer-view';
import type { GraderItemView } from '@/lib/grading/grader-view';
import { CLAIM_MARKS, type ClaimMark, describeScore, EVIDENCE_FLAGS, type EvidenceFlag, type Marks } from '@/lib/grading/rubrics';

type SaveState = 'saved' | 'saving' | 'unsaved' | 'error';

/** Where a grade waits in the browser until the server has it: a reload or a failed request loses nothing. */
const backupKey = (campaign: string, item: string) => `assay-grade:${campaign}:${item}`;

const claimLabel: Record<ClaimMark, string> = { supported: 'S', unsupported: 'U', 'wrong-citation': 'W' };

/**
 * The grading screen: one item, its answers blind (A, B … in this grader's order), the rubric with its guidelines,
 * per-claim marks and evidence flags. Keyboard first: digits score the focused criterion of the focused answer
 * (1 then 0 for 10), ↑/↓ or j/k move between criteria, ←/→ or h/l between answers, a/t/b give a pairwise
 * preference, n/p move between items, Enter submits, ? opens the guidelines. Every change is autosaved; while the
 * server cannot be reached the grade is kept in the browser and saved again.
 */
export function GradingScreen({ view }: { view: GraderItemView }) {
  const router = useRouter();
  const { campaign, item, answers, queue } = view;
  const rubric = campaign.rubric;
  const readOnly = campaign.status !== 'open';
  const key = backupKey(campaign.id, item.id);
  const [marks, setMarks] = useState<Marks>(view.marks);
  const [submitted, setSubmitted] = useState(view.submitted);
  const [save, setSave] = useState<SaveState>('saved');
  const [message, setMessage] = useState<string | null>(null);
  const [focusAnswer, setFocusAnswer] = useState(0);
  const [focusCriterion, setFocusCriterion] = useState(0);
  const [guidelines, setGuidelines] = useState(false);
  // Marks and focus as of the last key, not the last render: keys typed faster than React renders ("1", "1", Enter)
  // must score the criterion the previous key moved to and submit the mark the previous key set.
  const latest = useRef<Marks>(view.marks);
  const focus = useRef({ answer: 0, criterion: 0 });
  const moveFocus = useCallback((answer: number, criterion: number) => {
    focus.current = { answer, criterion };
    setFocusAnswer(answer);
    setFocusCriterion(criterion);
  }, []);
  // Set once the screen is interactive (its key handler attached), so a browser test knows when keys will count.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const revision = useRef(view.revision);
  const dirty = useRef(false);
  const lastDigit = useRef<{ digit: string; at: number } | null>(null);

  // A backup newer than what the server has (a failed save before a reload) wins and is saved again.
  useEffect(() => {
    const raw = window.localStorage.getItem(key);
    if (!raw) return;
    try {
      const backup = JSON.parse(raw) as { marks: Marks; revision: number };
      if (backup.revision >= view.revision) {
        latest.current = backup.marks;
        setMarks(backup.marks);
        dirty.current = true;
        setSave('unsaved');
      } else window.localStorage.removeItem(key);
    } catch {
      window.localStorage.removeItem(key);
    }
  }, [key, view.revision]);

  // Saves go one at a time: each carries the revision the previous one returned. Enter pressed while an autosave
  // is still in flight would otherwise send the same revision twice, and the second (the submit) would be refused
  // as a conflict and leave the grader on the item.
  const saving = useRef<Promise<unknown>>(Promise.resolve());
  const sendNow = useCallback(
    async (next: Marks, submit: boolean): Promise<boolean> => {
      setSave('saving');
      try {
        const res = await fetch(`/api/grading/${campaign.id}/grades`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ordinal: item.ordinal, marks: next, submit, revision: revision.current }),
        });
        const json = await res.json().catch(() => ({}));
        if (!res.ok) {
          setSave(res.status >= 500 ? 'error' : 'unsaved');
          setMessage(json.error ?? `saving failed (${res.status})`);
          return false;
        }
        revision.current = json.revision;
        dirty.current = false;
        window.localStorage.removeItem(key);
        setSubmitted(json.submitted);
        setSave('saved');
        setMessage(null);
        return true;
      } catch {
        setSave('error');
        setMessage('the server cannot be reached; your marks are kept in this browser and saved again shortly');
        return false;
      }
    },
    [campaign.id, item.ordinal, key],
  );
  const send = useCallback(
    (next: Marks, submit: boolean): Promise<boolean> => {
      const run = saving.current.then(() => sendNow(next, submit));
      saving.current = run.catch(() => undefined);
      return run;
    },
    [sendNow],
  );

  const update = useCallback(
    (change: (m: Marks) => Marks) => {
      if (readOnly) return;
      const next = change(latest.current);
      latest.current = next;
      setMarks(next);
      window.localStorage.setItem(key, JSON.stringify({ marks: next, revision: revision.current }));
      dirty.current = true;
      setSave('unsaved');
    },
    [key, readOnly],
  );

  // Autosave: shortly after the last change, and again every few seconds while a save keeps failing.
  // biome-ignore lint/correctness/useExhaustiveDependencies: each change of marks restarts the timer, so the save follows the last change.
  useEffect(() => {
    if (save !== 'unsaved' && save !== 'error') return;
    const t = setTimeout(
      () => {
        if (dirty.current) void send(latest.current, false);
      },
      save === 'error' ? 3000 : 600,
    );
    return () => clearTimeout(t);
  }, [marks, save, send]);

  const goTo = useCallback(
    async (ordinal: number | undefined) => {
      if (ordinal === undefined) return;
      if (dirty.current && !(await send(latest.current, false))) return;
      router.push(`/grading/${campaign.id}/grade?item=${ordinal + 1}`);
    },
    [campaign.id, router, send],
  );
  const position = queue.findIndex((q) => q.ordinal === item.ordinal);
  const nextOrdinal = queue[position + 1]?.ordinal;
  const previousOrdinal = position > 0 ? queue[position - 1].ordinal : undefined;

  const submit = useCallback(async () => {
    if (await send(latest.current, true)) {
      const nextOpen = queue.slice(position + 1).find((q) => q.state !== 'submitted') ?? queue.find((q, i) => i !== position && q.state !== 'submitted');
      if (nextOpen) router.push(`/grading/${campaign.id}/grade?item=${nextOpen.ordinal + 1}`);
      else router.refresh();
    }
  }, [campaign.id, position, queue, router, send]);

  const setScore = useCallback(
    (answerIndex: number, criterionIndex: number, value: number) => {
      const c = rubric.criteria[criterionIndex];
      const a = answers[answerIndex];
      if (!c || !a || value < c.min || value > c.max) return;
      update((m) => ({ ...m, scores: { ...m.scores, [a.id]: { ...m.scores[a.id], [c.id]: value } } }));
    },
    [answers, rubric.criteria, update],
  );
  const prefer = useCallback((winner: string) => update((m) => ({ ...m, preference: { winner, reason: m.preference?.reason ?? '' } })), [update]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement;
      if (target.closest('input, textarea, select') || e.metaKey || e.ctrlKey || e.altKey) return;
      const criteria = rubric.criteria.length;
      if (/^[0-9]$/.test(e.key) && !rubric.pairwise) {
        const { answer, criterion } = focus.current;
        const c = rubric.criteria[criterion];
        const previous = lastDigit.current;
        let value = Number(e.key);
        // 1 then 0 within a moment is 10 on a 0–10 scale.
        if (c?.max === 10 && e.key === '0' && previous?.digit === '1' && Date.now() - previous.at < 900) value = 10;
        lastDigit.current = { digit: e.key, at: Date.now() };
        setScore(answer, criterion, value);
        if (!(c?.max === 10 && e.key === '1')) moveFocus(answer, Math.min(criteria - 1, criterion + 1));
        e.preventDefault();
        return;
      }
      switch (e.key) {
        case 'ArrowDown':
        case 'j':
          moveFocus(focus.current.answer, Math.min(Math.max(criteria - 1, 0), focus.current.criterion + 1));
          break;
        case 'ArrowUp':
        case 'k':
          moveFocus(focus.current.answer, Math.max(0, focus.current.criterion - 1));
          break;
        case 'ArrowRight':
        case 'l':
          moveFocus(Math.min(answers.length - 1, focus.current.answer + 1), 0);
          break;
        case 'ArrowLeft':
        case 'h':
          moveFocus(Math.max(0, focus.current.answer - 1), 0);
          break;
        case 'a':
        case 'b':
          if (!rubric.pairwise) return;
          prefer(answers[e.key === 'a' ? 0 : 1]?.id ?? 'tie');
          break;
        case 't':
          if (!rubric.pairwise) return;
          prefer('tie');
          break;
        case 'n':
          void goTo(nextOrdinal);
          break;
        case 'p':
          void goTo(previousOrdinal);
          break;
        case 'Enter':
          void submit();
          break;
        case '?':
          setGuidelines((g) => !g);
          break;
        default:
          return;
      }
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [answers, goTo, moveFocus, nextOrdinal, prefer, previousOrdinal, rubric, setScore, submit]);

  const done = queue.filter((q) => q.ordinal !== item.ordinal && q.state === 'submitted').length + (submitted ? 1 : 0);
  const saveText: Record<SaveState, string> = { saved: 'All changes saved', saving: 'Saving…', unsaved: 'Unsaved changes…', error: 'Not saved yet — retrying' };

  return (
    <div className="space-y-4" data-testid="grading-screen" data-ready={ready}>
      <div className="flex flex-wrap items-center gap-4">
        <Link href={`/grading/${campaign.id}`} className="text-sm text-teal-800 hover:underline">
          ← {campaign.name}
        </Link>
        <span className="text-sm text-slate-600">
          Item {position + 1} of {queue.length}
        </span>
        <div
          className="h-2 w-48 overflow-hidden rounded bg-slate-200"
          role="progressbar"
          aria-label="Your progress"
          aria-valuemin={0}
          aria-valuemax={queue.length}
          aria-valuenow={done}
        >
          <div className="h-full bg-teal-600" style={{ width: `${queue.length ? (100 * done) / queue.length : 0}%` }} />
        </div>
        <span className="text-xs text-slate-600" data-testid="progress-text">
          {done} of {queue.length} submitted
        </span>
        <span role="status" data-testid="save-state" data-state={save} className={`ml-auto text-xs ${save === 'error' ? 'text-red-700' : 'text-slate-600'}`}>
          {readOnly ? `Campaign ${campaign.status}: read only` : saveText[save]}
          {submitted && ' · submitted'}
        </span>
      </div>
      {message && (
        <p role="alert" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {message}
        </p>
      )}
      <h1 className="text-xl font-semibold" data-testid="grading-question">
        {item.question}
      </h1>
      <details
        open={guidelines}
        onToggle={(e) => setGuidelines((e.target as HTMLDetailsElement).open)}
        className="rounded border border-slate-200 bg-white p-3 text-sm"
      >
        <summary className="cursor-pointer font-medium">Guidelines: {rubric.label} (press ?)</summary>
        <p className="mt-2 text-slate-600">{rubric.summary}</p>
        {rubric.criteria.map((c) => (
          <div key={c.id} className="mt-2">
            <p className="font-medium">{c.label}</p>
            <ul className="ml-4 list-disc text-slate-700">
              {Object.values(c.anchors).map((a) => (
                <li key={a}>{a}</li>
              ))}
            </ul>
          </div>
        ))}
        <p className="mt-2 text-slate-600">
          Keys: digits score ({rubric.criteria.some((c) => c.max === 10) ? '1 then 0 for 10; ' : ''}the next criterion is then focused), ↑/↓ criteria, ←/→
          answers,
          {rubric.pairwise ? ' a / t / b preference,' : ''} n/p next/previous item, Enter submits. Per claim: S supported, U unsupported, W wrong citation.
        </p>
      </details>
      <div className={`grid gap-4 ${answers.length > 1 ? 'lg:grid-cols-2' : ''}`}>
        {answers.map((a, ai) => (
          <section
            key={a.id}
            aria-label={`Answer ${a.slot}`}
            data-testid="blind-answer"
            className={`space-y-3 rounded border bg-white p-4 ${ai === focusAnswer ? 'border-teal-600 ring-1 ring-teal-600' : 'border-slate-200'}`}
          >
            <h2 className="text-lg font-semibold">Answer {a.slot}</h2>
            {!rubric.pairwise && (
              <fieldset className="space-y-1">
                <legend className="sr-only">Scores of answer {a.slot}</legend>
                {rubric.criteria.map((c, ci) => {
                  const value = marks.scores[a.id]?.[c.id];
                  const focused = ai === focusAnswer && ci === focusCriterion;
                  return (
                    <div
                      key={c.id}
                      className={`flex flex-wrap items-center gap-1 rounded px-1 text-sm ${focused ? 'bg-teal-50' : ''}`}
                      data-focused={focused || undefined}
                    >
                      <span className="w-40 font-medium">{c.label}</span>
                      {Array.from({ length: c.max - c.min + 1 }, (_, k) => c.min + k).map((v) => (
                        <button
                          key={v}
                          type="button"
                          disabled={readOnly}
                          aria-pressed={value === v}
                          aria-label={`${c.label} ${v} for answer ${a.slot}`}
                          title={describeScore(c, v)}
                          onClick={() => {
                            moveFocus(ai, ci);
                            setScore(ai, ci, v);
                          }}
                          className={`h-6 w-6 rounded text-xs ${value === v ? 'bg-teal-700 text-white' : 'bg-slate-100 hover:bg-slate-200'}`}
                        >
                          {v}
                        </button>
                      ))}
                      {value !== undefined && <span className="text-xs text-slate-600">{describeScore(c, value)}</span>}
                    </div>
                  );
                })}
              </fieldset>
            )}
            <AnswerView
              answer={a.answer}
              blind
              claimExtra={(si) => (
                <fieldset className="inline-flex gap-0.5">
                  <legend className="sr-only">
                    Mark claim {si + 1} of answer {a.slot}
                  </legend>
                  {CLAIM_MARKS.map((mark) => {
                    const on = marks.claims[a.id]?.[String(si)] === mark;
                    return (
                      <button
                        key={mark}
                        type="button"
                        disabled={readOnly}
                        aria-pressed={on}
                        aria-label={`${mark} (claim ${si + 1}, answer ${a.slot})`}
                        title={mark}
                        onClick={() =>
                          update((m) => {
                            const claims = { ...m.claims[a.id] };
                            if (on) delete claims[String(si)];
                            else claims[String(si)] = mark;
                            return { ...m, claims: { ...m.claims, [a.id]: claims } };
                          })
                        }
                        className={`rounded px-1 text-[10px] ${on ? 'bg-slate-800 text-white' : 'bg-slate-100 text-slate-700'}`}
                      >
                        {claimLabel[mark]}
                      </button>
                    );
                  })}
                </fieldset>
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
        <fieldset className="space-y-2 rounded border border-slate-200 bg-white p-3" aria-label="Preference">
          <legend className="px-1 text-sm font-medium">Which answer is better?</legend>
          <div className="flex gap-2">
            {[
              { label: 'A is better (a)', winner: answers[0]?.id },
              { label: 'Tie (t)', winner: 'tie' },
              { label: 'B is better (b)', winner: answers[1]?.id },
            ].map((o) => (
              <button
                key={o.label}
                type="button"
                disabled={readOnly}
                aria-pressed={marks.preference?.winner === o.winner}
                onClick={() => prefer(o.winner ?? 'tie')}
                className={`rounded px-3 py-1 text-sm ${marks.preference?.winner === o.winner ? 'bg-teal-700 text-white' : 'bg-slate-100'}`}
              >
                {o.label}
              </button>
            ))}
          </div>
          <label className="block text-sm">
            Reason
            <textarea
              value={marks.preference?.reason ?? ''}
              disabled={readOnly}
              onChange={(e) => {
                const reason = e.target.value;
                update((m) => ({ ...m, preference: { winner: m.preference?.winner ?? 'tie', reason } }));
              }}
              className="mt-1 w-full rounded border border-slate-300 p-2"
              rows={2}
            />
          </label>
        </fieldset>
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

function EvidenceFlagControl({
  flagged,
  onFlag,
  onRemove,
  disabled,
}: {
  flagged: { kind: EvidenceFlag; comment: string }[];
  onFlag: (kind: EvidenceFlag, comment: string) => void;
  onRemove: () => void;
  disabled: boolean;
}) {
  const [kind, setKind] = useState<EvidenceFlag>('wrong-paragraph');
  const [comment, setComment] = useState('');
  if (flagged.length)
    return (
      <span className="text-xs text-red-800" data-testid="evidence-flag">
        flagged: {flagged.map((f) => `${f.kind}${f.comment ? ` (${f.comment})` : ''}`).join(', ')}{' '}
        <button type="button" disabled={disabled} onClick={onRemove} className="underline">
          remove
        </button>
      </span>
    );
  return (
    <span className="flex flex-wrap items-center gap-1 text-xs">
      <select
        value={kind}
        disabled={disabled}
        onChange={(e) => setKind(e.target.value as EvidenceFlag)}
        aria-label="Flag kind"
        className="rounded border border-slate-300"
      >
        {EVIDENCE_FLAGS.map((f) => (
          <option key={f}>{f}</option>
        ))}
      </select>
      <input
        value={comment}
        disabled={disabled}
        onChange={(e) => setComment(e.target.value)}
        placeholder="comment"
        aria-label="Flag comment"
        className="w-32 rounded border border-slate-300 px-1"
      />
      <button type="button" disabled={disabled} onClick={() => onFlag(kind, comment)} className="rounded bg-slate-100 px-1.5 hover:bg-slate-200">
        Flag
      </button>
    </span>
  );
}
