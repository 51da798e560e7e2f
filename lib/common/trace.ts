import type { Deadline } from './deadline.ts';

/**
 * A step-by-step trace of one request: each step's name, duration and what it found, shown in the UI and kept
 * with evaluation results. Leaf module.
 */
export interface TraceStep {
  step: string;
  ms: number;
  detail: Record<string, unknown>;
}

/** Runs `fn` as a named step and records its duration and `detail(result)`. */
export type StepFn = <T>(name: string, fn: () => Promise<T> | T, detail: (r: T) => Record<string, unknown>) => Promise<T>;

/** A trace whose steps each check `deadline` first: a question past its time ends at the next step it starts. */
export function createTrace(deadline?: Deadline): { trace: TraceStep[]; step: StepFn } {
  const trace: TraceStep[] = [];
  const step: StepFn = async (name, fn, detail) => {
    deadline?.check(name);
    const t = performance.now();
    const r = await fn();
    trace.push({ step: name, ms: round(performance.now() - t), detail: detail(r) });
    return r;
  };
  return { trace, step };
}

export function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
