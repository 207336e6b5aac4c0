import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, mkdirSync, openSync, readdirSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { ReplayClaims } from '../runtime/index.js';

const CLAIM = 'c-';
const SPENT = 'spent';
/** The time file's bytes read at most: one short line per test that replayed. */
const MAX_SPENT_BYTES = 256 * 1024;

/**
 * The run's replay claims and replay time, in a folder of the run's own (beside its replay rows)
 * that every worker of the run shares: a request (by owner and pattern) is claimed by creating a
 * file named by its hash exclusively, so exactly one worker replays it; a claim past the run's
 * bound is refused by counting the claims made, itself included (a race leaves the run under its
 * bound, never over). The time spent replaying is added by each test as it ends.
 *
 * @example
 * const claims = runReplayClaims(join(runDir, 'access-replay-claims'));
 * claims.claim('alice\nGET https://a.test/api/orders/{id}', 500); // 'taken' in one worker, 'duplicate' in the others
 */
export function runReplayClaims(dir: string): ReplayClaims & { spentMs(): number; addSpent(ms: number): void } {
  let usable = true;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    usable = false;
  }
  const fallback = new Set<string>();
  return {
    claim(key, perRun) {
      const name = `${CLAIM}${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
      if (!usable) {
        if (fallback.has(name)) return 'duplicate';
        if (fallback.size >= perRun) return 'over_limit';
        fallback.add(name);
        return 'taken';
      }
      try {
        // Exclusive creation: a link or FIFO planted at the name is never followed nor opened (EEXIST).
        closeSync(openSync(join(dir, name), 'wx', 0o600));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') return 'duplicate';
        usable = false;
        return this.claim(key, perRun);
      }
      return claimCount(dir, perRun) > perRun ? 'over_limit' : 'taken';
    },
    spentMs() {
      return usable ? readSpent(join(dir, SPENT)) : 0;
    },
    addSpent(ms) {
      if (!usable || !Number.isFinite(ms) || ms <= 0) return;
      let fd: number | undefined;
      try {
        fd = openSync(join(dir, SPENT), constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
        if (fstatSync(fd).size < MAX_SPENT_BYTES) writeSync(fd, `${Math.round(ms)}\n`);
      } catch {
        // Best effort: the run's budget is then counted from what the other tests wrote.
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
    },
  };
}

/** The claims in `dir`, counted up to `perRun + 1` (enough to tell the bound is passed). */
function claimCount(dir: string, perRun: number): number {
  let count = 0;
  try {
    for (const name of readdirSync(dir)) if (name.startsWith(CLAIM) && ++count > perRun) break;
  } catch {
    return 0;
  }
  return count;
}

/** The milliseconds the run's tests wrote, summed; 0 when the file is missing or unreadable. */
function readSpent(file: string): number {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    if (!fstatSync(fd).isFile()) return 0;
    const buffer = Buffer.alloc(MAX_SPENT_BYTES);
    const text = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
    let sum = 0;
    for (const line of text.split('\n')) {
      const ms = Number(line);
      if (line && Number.isFinite(ms) && ms > 0) sum += ms;
    }
    return sum;
  } catch {
    return 0;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
