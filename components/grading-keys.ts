'use client';

import { useEffect, useRef } from 'react';

/**
 * The grading screen's keyboard, as a pure function of a key and where the grader is (tested on its own) and a
 * hook that applies it. Digits score the focused criterion of the focused answer (1 then 0 within a moment is 10 on a
 * 0–10 scale) and move to the next criterion; ↑/↓ or j/k move between criteria, ←/→ or h/l between answers; a/t/b
 * give a pairwise preference; n/p move between items; Enter submits; ? toggles the guidelines.
 */

export interface KeyContext {
  criteria: { min: number; max: number }[];
  answers: number;
  pairwise: boolean;
  focus: { answer: number; criterion: number };
  /** The digit typed last and when (ms), for "1 then 0". */
  lastDigit: { digit: string; at: number } | null;
}

export type KeyAction =
  | { kind: 'score'; answer: number; criterion: number; value: number; focus: { answer: number; criterion: number } }
  | { kind: 'focus'; answer: number; criterion: number }
  | { kind: 'prefer'; slot: 'a' | 'b' | 'tie' }
  | { kind: 'next' | 'previous' | 'submit' | 'guidelines' };

/** How long after a 1 a 0 still makes 10. */
export const TEN_WINDOW_MS = 900;

export function gradingKeyAction(key: string, at: number, ctx: KeyContext): KeyAction | null {
  const { answer, criterion } = ctx.focus;
  const last = Math.max(ctx.criteria.length - 1, 0);
  if (/^[0-9]$/.test(key)) {
    if (ctx.pairwise) return null;
    const c = ctx.criteria[criterion];
    const ten = c?.max === 10 && key === '0' && ctx.lastDigit?.digit === '1' && at - ctx.lastDigit.at < TEN_WINDOW_MS;
    // A 1 on a 0–10 scale may be the start of 10: the focus stays until the next key says.
    const stay = c?.max === 10 && key === '1';
    return { kind: 'score', answer, criterion, value: ten ? 10 : Number(key), focus: { answer, criterion: stay ? criterion : Math.min(last, criterion + 1) } };
  }
  switch (key) {
    case 'ArrowDown':
    case 'j':
      return { kind: 'focus', answer, criterion: Math.min(last, criterion + 1) };
    case 'ArrowUp':
    case 'k':
      return { kind: 'focus', answer, criterion: Math.max(0, criterion - 1) };
    case 'ArrowRight':
    case 'l':
      return { kind: 'focus', answer: Math.min(ctx.answers - 1, answer + 1), criterion: 0 };
    case 'ArrowLeft':
    case 'h':
      return { kind: 'focus', answer: Math.max(0, answer - 1), criterion: 0 };
    case 'a':
    case 'b':
    case 't':
      return ctx.pairwise ? { kind: 'prefer', slot: key === 't' ? 'tie' : key } : null;
    case 'n':
      return { kind: 'next' };
    case 'p':
      return { kind: 'previous' };
    case 'Enter':
      return { kind: 'submit' };
    case '?':
      return { kind: 'guidelines' };
    default:
      return null;
  }
}

/**
 * Listens for the grading keys on the window (not while typing in a field, nor with a modifier) and hands each
 * action to `apply`. The context is read when the key is pressed, through `context()`, so keys typed faster than
 * React renders act on where the previous key left the grader.
 */
export function useGradingKeys(context: () => Omit<KeyContext, 'lastDigit'>, apply: (action: KeyAction) => void) {
  const lastDigit = useRef<KeyContext['lastDigit']>(null);
  const handlers = useRef({ context, apply });
  handlers.current = { context, apply };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement;
      if (target.closest('input, textarea, select') || e.metaKey || e.ctrlKey || e.altKey) return;
      const now = Date.now();
      const action = gradingKeyAction(e.key, now, { ...handlers.current.context(), lastDigit: lastDigit.current });
      if (/^[0-9]$/.test(e.key)) lastDigit.current = { digit: e.key, at: now };
      if (!action) return;
      handlers.current.apply(action);
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
