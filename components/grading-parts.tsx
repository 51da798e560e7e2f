'use client';

import Link from 'next/link';
import { useState } from 'react';
import type { GraderItemView } from '@/lib/grading/grader-view';
import { CLAIM_MARKS, type ClaimMark, describeScore, EVIDENCE_FLAGS, type EvidenceFlag, type Rubric } from '@/lib/grading/rubrics';
import type { SaveState } from './grade-autosave';

/** The small parts of the grading screen (grading-screen.tsx composes them). */

const saveText: Record<SaveState, string> = { saved: 'All changes saved', saving: 'Saving…', unsaved: 'Unsaved changes…', error: 'Not saved yet — retrying' };

/** Where the grader is: the campaign, the item's place, their progress, and whether the grade is saved. */
export function GradingHeader(props: {
  campaign: GraderItemView['campaign'];
  position: number;
  total: number;
  done: number;
  save: SaveState;
  readOnly: boolean;
  submitted: boolean;
}) {
  const { campaign, position, total, done, save, readOnly, submitted } = props;
  return (
    <div className="flex flex-wrap items-center gap-4">
      <Link href={`/grading/${campaign.id}`} className="text-sm text-teal-800 hover:underline">
        ← {campaign.name}
      </Link>
      <span className="text-sm text-slate-600">
        Item {position + 1} of {total}
      </span>
      <div
        className="h-2 w-48 overflow-hidden rounded bg-slate-200"
        role="progressbar"
        aria-label="Your progress"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
      >
        <div className="h-full bg-teal-600" style={{ width: `${total ? (100 * done) / total : 0}%` }} />
      </div>
      <span className="text-xs text-slate-600" data-testid="progress-text">
        {done} of {total} submitted
      </span>
      <span role="status" data-testid="save-state" data-state={save} className={`ml-auto text-xs ${save === 'error' ? 'text-red-700' : 'text-slate-600'}`}>
        {readOnly ? `Campaign ${campaign.status}: read only` : saveText[save]}
        {submitted && ' · submitted'}
      </span>
    </div>
  );
}

/** The rubric's guidelines: a description per score, and the keys. */
export function Guidelines({ rubric, open, onToggle }: { rubric: Rubric; open: boolean; onToggle: (open: boolean) => void }) {
  return (
    <details open={open} onToggle={(e) => onToggle((e.target as HTMLDetailsElement).open)} className="rounded border border-slate-200 bg-white p-3 text-sm">
      <summary className="cursor-pointer font-medium">Guidelines: {rubric.label} (press ?)</summary>
      <p className="mt-2 text-slate-600">{rubric.summary.charAt(0).toUpperCase() + rubric.summary.slice(1)}</p>
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
  );
}

/** One criterion of one answer: a button per score, the chosen one described. */
export function ScoreRow(props: {
  criterion: Rubric['criteria'][number];
  slot: string;
  value: number | undefined;
  focused: boolean;
  readOnly: boolean;
  onScore: (value: number) => void;
}) {
  const { criterion: c, slot, value, focused, readOnly, onScore } = props;
  return (
    <div className={`flex flex-wrap items-center gap-1 rounded px-1 text-sm ${focused ? 'bg-teal-50' : ''}`} data-focused={focused || undefined}>
      <span className="w-40 font-medium">{c.label}</span>
      {Array.from({ length: c.max - c.min + 1 }, (_, k) => c.min + k).map((v) => (
        <button
          key={v}
          type="button"
          disabled={readOnly}
          aria-pressed={value === v}
          aria-label={`${c.label} ${v} for answer ${slot}`}
          title={describeScore(c, v)}
          onClick={() => onScore(v)}
          className={`h-6 w-6 rounded text-xs ${value === v ? 'bg-teal-700 text-white' : 'bg-slate-100 hover:bg-slate-200'}`}
        >
          {v}
        </button>
      ))}
      {value !== undefined && <span className="text-xs text-slate-600">{describeScore(c, value)}</span>}
    </div>
  );
}

const claimLabel: Record<ClaimMark, string> = { supported: 'S', unsupported: 'U', 'wrong-citation': 'W' };

/** The per-claim marks after one sentence of an answer (S supported, U unsupported, W wrong citation). */
export function ClaimMarks(props: {
  sentence: number;
  slot: string;
  mark: ClaimMark | undefined;
  readOnly: boolean;
  onMark: (mark: ClaimMark | null) => void;
}) {
  const { sentence, slot, mark: current, readOnly, onMark } = props;
  return (
    <fieldset className="inline-flex gap-0.5">
      <legend className="sr-only">
        Mark claim {sentence + 1} of answer {slot}
      </legend>
      {CLAIM_MARKS.map((mark) => {
        const on = current === mark;
        return (
          <button
            key={mark}
            type="button"
            disabled={readOnly}
            aria-pressed={on}
            aria-label={`${mark} (claim ${sentence + 1}, answer ${slot})`}
            title={mark}
            onClick={() => onMark(on ? null : mark)}
            className={`rounded px-1 text-[10px] ${on ? 'bg-slate-800 text-white' : 'bg-slate-100 text-slate-700'}`}
          >
            {claimLabel[mark]}
          </button>
        );
      })}
    </fieldset>
  );
}

/** A pairwise preference (A, tie, B) with its reason. */
export function PreferenceField(props: {
  answers: { id: string }[];
  winner: string | undefined;
  reason: string;
  readOnly: boolean;
  onPrefer: (winner: string) => void;
  onReason: (reason: string) => void;
}) {
  const { answers, winner, reason, readOnly, onPrefer, onReason } = props;
  return (
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
            aria-pressed={winner === o.winner}
            onClick={() => onPrefer(o.winner ?? 'tie')}
            className={`rounded px-3 py-1 text-sm ${winner === o.winner ? 'bg-teal-700 text-white' : 'bg-slate-100'}`}
          >
            {o.label}
          </button>
        ))}
      </div>
      <label className="block text-sm">
        Reason
        <textarea
          value={reason}
          disabled={readOnly}
          onChange={(e) => onReason(e.target.value)}
          className="mt-1 w-full rounded border border-slate-300 p-2"
          rows={2}
        />
      </label>
    </fieldset>
  );
}

/** Flags an evidence item of an answer (wrong paragraph, bad tuple, bad merge) with a comment, or shows its flag. */
export function EvidenceFlagControl({
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
