/**
 * A value built on first use and shared by every later caller; a failed build is forgotten so the next caller
 * tries again (e.g. after the database comes back).
 */
export function lazyOnce<T>(build: () => Promise<T>): () => Promise<T> {
  let built: Promise<T> | null = null;
  return () => {
    if (!built) {
      const attempt = build();
      built = attempt;
      attempt.catch(() => {
        if (built === attempt) built = null;
      });
    }
    return built;
  };
}
