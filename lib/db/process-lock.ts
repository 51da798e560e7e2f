import fs from 'node:fs';
import { processRunning } from '../common/process-running.ts';

export class DatabaseLockedError extends Error {}

/**
 * PGlite is an in-process PostgreSQL: two processes opening the same data folder would corrupt it. This pid file
 * turns that into a clear error. A lock left by a killed process (pid no longer alive) is taken over.
 */
export function acquireProcessLock(lockPath: string, what: string): () => void {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(lockPath, 'utf8').trim() === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
      process.once('exit', release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(safeRead(lockPath), 10);
      if (owner === process.pid) {
        throw new DatabaseLockedError(`${what} is already open in this process`);
      }
      if (Number.isFinite(owner) && owner > 0 && processRunning(owner)) {
        throw new DatabaseLockedError(
          `${what} is in use by another Assay process (pid ${owner}). Stop it first (the embedded database ` +
            `serves one process at a time), import through the running app's /import page, or set DATABASE_URL ` +
            `to use PostgreSQL.`,
        );
      }
      try {
        fs.unlinkSync(lockPath); // stale: its owner died without releasing it
      } catch {
        /* raced with another taker */
      }
    }
  }
  throw new DatabaseLockedError(`could not lock ${what} (${lockPath})`);
}

function safeRead(p: string): string {
  try {
    return fs.readFileSync(p, 'utf8').trim();
  } catch {
    return '';
  }
}
