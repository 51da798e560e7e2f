import fs from 'node:fs';

/**
 * The data folder is the instance's own: its database, uploads, indexes and the session key are readable and
 * writable by the account that runs Assay, by nobody else. Everything the process makes from here on is made without
 * group or other permissions (umask 077: files 0600, folders 0700; the embedded database's files were 0666 under the
 * umask of 0 some machines run with), and the folder itself is closed to others, which also covers what an older
 * version left open inside it. Called by every process before it opens the data folder's database; a worker thread
 * cannot set the umask, and the process's is already in force there.
 */
export function keepDataFolderPrivate(dataDir: string): void {
  try {
    process.umask(0o077);
  } catch {
    // a worker thread: the process's umask applies
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    fs.chmodSync(dataDir, 0o700);
  } catch {
    // not ours to change (a shared folder mounted read-only for modes): its files are still made 0600
  }
}

/**
 * Takes group and other permissions off everything under `dir` (files 0600, folders 0700). PGlite gives its files
 * the modes of the archive it unpacks a new database from and of its own chmod calls (0666), whatever the umask: run
 * on its folder once it is open. About 1,000 files, a few milliseconds.
 */
export function closeModesUnder(dir: string): void {
  for (const e of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = `${e.parentPath}/${e.name}`;
    try {
      const mode = fs.lstatSync(file).mode;
      if (!e.isSymbolicLink() && mode & 0o077) fs.chmodSync(file, mode & 0o700);
    } catch {
      // removed meanwhile (a temporary file of the database's)
    }
  }
}
