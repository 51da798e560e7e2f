/** What the server's environment adds when `next start` is started: see server-process-env.mjs. */
export function serverProcessEnv(env: Record<string, string | undefined>): Record<string, string>;
