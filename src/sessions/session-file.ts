import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SignInResult } from '../runtime/index.js';

/**
 * Bumped when the file layout changes, so old files are ignored instead of misread (and deleted:
 * format 1 files held the config's passwords and static credentials).
 */
const FORMAT = 2;

interface SessionFileBody {
  format: number;
  key: string;
  session: SignInResult;
}

/**
 * The cache file of one user under one config: the name carries the user (for people looking at
 * `.auth/`) and a hash of the config content and the user, so that editing the config invalidates
 * every session it made.
 *
 * @example
 * sessionFilePath('.auth', 'e3b0…', 'alice'); // '.auth/alice-1f2e3d4c5b6a7988.json'
 */
export function sessionFilePath(dir: string, scopeKey: string, user: string): string {
  const hash = createHash('sha256').update(`${scopeKey}\0${user}`).digest('hex').slice(0, 16);
  const readable = user.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 40) || 'user';
  return join(dir, `${readable}-${hash}.json`);
}

/**
 * Reads a cached session. A missing file gives undefined; so does a corrupted, truncated or foreign
 * file, which is deleted so the next writer starts clean (a crash mid-write must not wedge a run).
 */
export function readSessionFile(path: string, scopeKey: string): SignInResult | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const body = JSON.parse(text) as Partial<SessionFileBody>;
    if (body.format === FORMAT && body.key === scopeKey && isSession(body.session)) return body.session;
  } catch {
    // fall through: unreadable content is treated as no session
  }
  rmSync(path, { force: true });
  return undefined;
}

/**
 * Writes what a sign-in produced atomically (temp file, then rename) with mode 0600, so a reader
 * never sees half a file and no other local user can read the tokens. Only a {@link SignInResult}:
 * nothing the config holds is written to disk.
 */
export function writeSessionFile(path: string, scopeKey: string, session: SignInResult): void {
  const body: SessionFileBody = { format: FORMAT, key: scopeKey, session };
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, JSON.stringify(body), { mode: 0o600 });
  renameSync(temp, path);
}

function isSession(value: unknown): value is SignInResult {
  if (!value || typeof value !== 'object') return false;
  const s = value as Record<string, unknown>;
  return (
    typeof s.user === 'string' &&
    typeof s.headers === 'object' &&
    Array.isArray(s.cookies) &&
    typeof s.createdAt === 'number' &&
    (s.expiresAt === null || typeof s.expiresAt === 'number')
  );
}
