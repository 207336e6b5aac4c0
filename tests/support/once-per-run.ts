import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What {@link oncePerRun} makes: a folder name prefix, what tells one build from another, and the build. */
export interface OncePerRunOptions {
  /** The folder is `<tmpdir>/multiauth-<name>-<runner pid>-<key>`. */
  name: string;
  /** What else the folder depends on (a build's time, a variant), so that a change makes a new one. */
  key: string;
  /** Fills `dir` (it exists and is empty); a throw fails this worker and every worker waiting. */
  build: (dir: string) => Promise<void>;
  /** How long a worker waits for another one's build before it gives up. */
  waitMs: number;
}

/** A folder older than this belongs to a finished run (no run of the suite takes two hours). */
const STALE_MS = 2 * 60 * 60 * 1000;
/** How often a waiting worker looks for the builder's verdict. */
const POLL_MS = 200;

/**
 * A folder built once per test run and shared by every worker of the run: the run's workers are
 * children of one runner, so the runner's pid names the run's folder. The first worker to create
 * the folder builds it; the others wait for its `done` (or `failed`, with the builder's error)
 * file. Folders of finished runs with the same name are removed by the builder.
 *
 * @example
 * const home = await oncePerRun({ name: 'django', key: 'plain', waitMs: 180_000, build: async (dir) => { ... } });
 */
export async function oncePerRun(options: OncePerRunOptions): Promise<string> {
  const prefix = `multiauth-${options.name}-`;
  const home = join(tmpdir(), `${prefix}${process.ppid}-${options.key}`);
  const done = join(home, 'done');
  const failed = join(home, 'failed');
  try {
    mkdirSync(home);
  } catch {
    for (const started = Date.now(); !existsSync(done); ) {
      if (existsSync(failed)) throw new Error(`another worker's build of ${home} failed:\n${readFileSync(failed, 'utf8')}`);
      if (Date.now() - started > options.waitMs) throw new Error(`the build of ${home} did not finish in ${options.waitMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return home;
  }
  removeStale(prefix, home);
  try {
    await options.build(home);
  } catch (error) {
    writeFileSync(failed, String(error instanceof Error ? error.message : error));
    throw error;
  }
  writeFileSync(done, '');
  return home;
}

/** Removes the folders of earlier runs (a pack with its dependencies is 36 MB). */
function removeStale(prefix: string, keep: string): void {
  const now = Date.now();
  for (const name of readdirSync(tmpdir()).filter((entry) => entry.startsWith(prefix))) {
    const path = join(tmpdir(), name);
    try {
      if (path !== keep && now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed by another run meanwhile.
    }
  }
}
