export async function register() {
  // Not while `next build` prerenders: only a serving process opens the database.
  if (process.env.NEXT_RUNTIME === 'nodejs' && process.env.NEXT_PHASE !== 'phase-production-build') {
    const { startApp } = await import('./lib/startup');
    await startApp();
  }
}
