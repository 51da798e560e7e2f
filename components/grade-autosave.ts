'use client';

import type { SaveGradeResponse } from '@/app/api/grading/[id]/grades/contract';
import { ApiError, callApi } from './api-client';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Marks } from '@/lib/grading/rubrics';

export type SaveState = 'saved' | 'saving' | 'unsaved' | 'error';

/** Where a grade waits in the browser until the server has it: a reload or a failed request loses nothing. */
const backupKey = (campaign: string, item: string) => `assay-grade:${campaign}:${item}`;

/**
 * A grader's marks of one item, autosaved: each change is kept in the browser at once and sent shortly after the
 * last one (again every few seconds while the server cannot be reached); saves go one at a time, each carrying the
 * revision the previous one returned, so a late save never overwrites a newer one and Enter during an autosave
 * submits instead of conflicting. A backup newer than what the server has (a failed save before a reload) wins.
 * `latest` is the marks as of the last change, not the last render.
 */
export function useGradeAutosave(opts: {
  campaignId: string;
  itemId: string;
  ordinal: number;
  readOnly: boolean;
  initial: { marks: Marks; revision: number; submitted: boolean };
}) {
  const { campaignId, itemId, ordinal, readOnly, initial } = opts;
  const key = backupKey(campaignId, itemId);
  const [marks, setMarks] = useState<Marks>(initial.marks);
  const [submitted, setSubmitted] = useState(initial.submitted);
  const [save, setSave] = useState<SaveState>('saved');
  const [message, setMessage] = useState<string | null>(null);
  const latest = useRef<Marks>(initial.marks);
  const revision = useRef(initial.revision);
  const dirty = useRef(false);

  useEffect(() => {
    const raw = window.localStorage.getItem(key);
    if (!raw) return;
    try {
      const backup = JSON.parse(raw) as { marks: Marks; revision: number };
      if (backup.revision >= initial.revision) {
        latest.current = backup.marks;
        setMarks(backup.marks);
        dirty.current = true;
        setSave('unsaved');
      } else window.localStorage.removeItem(key);
    } catch {
      window.localStorage.removeItem(key);
    }
  }, [key, initial.revision]);

  const sendNow = useCallback(
    async (next: Marks, submit: boolean): Promise<boolean> => {
      setSave('saving');
      try {
        let saved: SaveGradeResponse;
        try {
          saved = await callApi('PUT /api/grading/[id]/grades', {
            params: { id: campaignId },
            body: { ordinal, marks: next, submit, revision: revision.current },
          });
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          setSave(error.status >= 500 ? 'error' : 'unsaved');
          setMessage(error.message);
          return false;
        }
        revision.current = saved.revision;
        dirty.current = false;
        window.localStorage.removeItem(key);
        setSubmitted(saved.submitted);
        setSave('saved');
        setMessage(null);
        return true;
      } catch {
        setSave('error');
        setMessage('the server cannot be reached; your marks are kept in this browser and saved again shortly');
        return false;
      }
    },
    [campaignId, ordinal, key],
  );
  const saving = useRef<Promise<unknown>>(Promise.resolve());
  /** Sends the marks (submitted or as a draft) after every save asked before; true when the server has them. */
  const send = useCallback(
    (next: Marks, submit: boolean): Promise<boolean> => {
      const run = saving.current.then(() => sendNow(next, submit));
      saving.current = run.catch(() => undefined);
      return run;
    },
    [sendNow],
  );

  /** Changes the marks (nothing while read only), keeps them in the browser and marks them for the autosave. */
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

  /** Saves what is not saved yet (before leaving the item); true when nothing is left unsaved. */
  const flush = useCallback(async () => !dirty.current || (await send(latest.current, false)), [send]);
  /** Submits the marks as they are now. */
  const submitNow = useCallback(() => send(latest.current, true), [send]);

  return { marks, submitted, save, message, update, flush, submitNow };
}
