import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { assayCacheDir, mavenClasspath } from '../../common/maven.ts';

/**
 * PDF tables through Tabula (tabula-java 1.0.5, from Maven Central; ASSAY_PDF_TABLES=tabula): the layout work of
 * finding a table on a page and splitting it into cells is what Tabula is built and kept for (ruled grids and
 * whitespace-aligned tables alike), so Assay does not write its own. TabulaTables.java runs it as a single source
 * file and prints each table's page, box and cell texts. Best-effort: Java or Maven missing, a PDF Tabula cannot
 * read, or a run over `timeoutMs` is a `TableExtractionError` the PDF reader reports as a note, never a lost paper.
 */
// TabulaTables.java and its pom.xml live with the other Java sources (java/tabula at the repository's top).
// In a Next.js server bundle a module has no import.meta.dirname: the sources' place is then found from the working
// directory (the repository, where \`npm start\` runs).
const here = path.resolve(import.meta.dirname ?? path.join(process.cwd(), 'lib/ingest/pdf-tables'), '../../../java/tabula');

export class TableExtractionError extends Error {}

export interface PdfTable {
  page: number;
  /** The table's box in points from the page's top left. */
  top: number;
  left: number;
  bottom: number;
  right: number;
  rows: string[][];
}

const tabulaOutput = z.array(
  z.object({ page: z.number(), top: z.number(), left: z.number(), bottom: z.number(), right: z.number(), rows: z.array(z.array(z.string())) }),
);

/** Most output read from one run (a table of the whole corpus in one PDF is no table worth citing). */
const MAX_OUTPUT = 16 * 1024 * 1024;

/**
 * How to start the launcher, found once per process (an import of many PDFs does not ask Maven for each, nor again
 * after it failed): Tabula's classpath, and the launcher compiled once into the user's cache (keyed by its source),
 * which saves each PDF the second a single-source run spends compiling it; without javac, the source is run as is.
 */
let launcher: { java: string[] } | { problem: string } | null = null;
function tabulaLauncher(): string[] {
  if (!launcher) {
    try {
      const cp = mavenClasspath(path.join(here, 'pom.xml'), 'tabula-1.0.5');
      const source = path.join(here, 'TabulaTables.java');
      const compiled = path.join(assayCacheDir(), 'tabula-launcher', createHash('sha256').update(fs.readFileSync(source)).digest('hex').slice(0, 12));
      if (!fs.existsSync(path.join(compiled, 'TabulaTables.class'))) spawnSync('javac', ['-cp', cp, '-d', compiled, source], { stdio: 'ignore' });
      launcher = {
        java: fs.existsSync(path.join(compiled, 'TabulaTables.class')) ? ['-cp', `${compiled}${path.delimiter}${cp}`, 'TabulaTables'] : ['-cp', cp, source],
      };
    } catch (error) {
      launcher = { problem: `Tabula is not available (${(error as Error).message.split('\n')[0]})` };
    }
  }
  if ('problem' in launcher) throw new TableExtractionError(launcher.problem);
  return launcher.java;
}

export async function tabulaTables(pdfPath: string, opts: { timeoutMs?: number } = {}): Promise<PdfTable[]> {
  const args = ['-Xmx512m', '-Dorg.slf4j.simpleLogger.defaultLogLevel=off', '-Djava.awt.headless=true', ...tabulaLauncher(), pdfPath];
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn('java', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new TableExtractionError(`Tabula did not finish within ${(opts.timeoutMs ?? 60_000) / 1000} s`));
    }, opts.timeoutMs ?? 60_000);
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.length > MAX_OUTPUT) child.kill('SIGKILL');
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-2000);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new TableExtractionError(`Java is needed for PDF tables: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new TableExtractionError(`Tabula could not read the PDF (${stderr.trim().split('\n').at(-1) ?? `exit ${code}`})`));
    });
  });
  let json: unknown;
  try {
    json = JSON.parse(out.trim() || '[]');
  } catch {
    throw new TableExtractionError('Tabula answered with something that is not JSON (its output was cut or garbled)');
  }
  const parsed = tabulaOutput.safeParse(json);
  if (!parsed.success) throw new TableExtractionError('Tabula answered in an unexpected shape');
  return parsed.data;
}
