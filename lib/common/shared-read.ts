/**
 * A read many callers ask for at once, made once: callers that arrive while a read is on its way share it instead
 * of each making their own (under load, fifty questions in flight asked the database for the corpus stamp about
 * twice each). `fresh()` always shares an in-flight read or starts one; `recent(maxAgeMs)` also accepts the last
 * answer when it arrived at most that long ago (for what only describes, such as the index's size on a screen).
 * A failed read is not kept.
 */
export interface SharedRead<T> {
  fresh(): Promise<T>;
  recent(maxAgeMs: number): Promise<T>;
  /**
   * Like `recent`, and a new read starts in the background whenever the last answer is given: callers that keep
   * asking never wait for a read (the app's questions while an import keeps the database busy), one after a pause does.
   */
  lately(maxAgeMs: number): Promise<T>;
}

export function sharedRead<T>(read: () => Promise<T>, now: () => number = () => performance.now()): SharedRead<T> {
  let inFlight: Promise<T> | null = null;
  let last: { value: T; at: number } | null = null;
  const fresh = () => {
    if (!inFlight) {
      const attempt = read().then((value) => {
        last = { value, at: now() };
        return value;
      });
      inFlight = attempt;
      const done = () => {
        if (inFlight === attempt) inFlight = null;
      };
      attempt.then(done, done);
    }
    return inFlight;
  };
  const recent = (maxAgeMs: number) => (last && now() - last.at <= maxAgeMs ? Promise.resolve(last.value) : fresh());
  return {
    fresh,
    recent,
    lately(maxAgeMs) {
      const given = recent(maxAgeMs);
      // A failure here is the next caller's to see (it reads again).
      if (!inFlight) fresh().catch(() => {});
      return given;
    },
  };
}
