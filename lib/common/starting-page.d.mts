/** The page `npm start` serves while it builds the app: see starting-page.mjs. */
export function serveStartingPage(opts: { host: string; port: number; since?: number }): Promise<{ port: number; close(): Promise<void> } | null>;
