import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { errorFromData, type ErrorData } from '../core/error-data.js';
import { requireNow } from '../core/lazy-module.js';
import { packageModule } from '../core/package-files.js';
import type { DigestRequest } from './digest-open.js';
import type { RunDigest } from './run-digest.js';

export type { DigestRequest } from './digest-open.js';

/** What the child prints: the digest, or the error that stopped it, as data. */
export type DigestAnswer = { digest: RunDigest } | { error: ErrorData } | { bug: string };

/** Opening a config takes well under a second; a child stuck longer than this is stopped. */
const CHILD_TIMEOUT_MS = 60_000;
/** A digest of 100k users with long names still fits. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/**
 * Opens the config (without `checkPlan` and `preflight`, as `openConfig({ checks: false })`) in a
 * child Node process, synchronously, and returns the digest of what it found. For the role matrix:
 * it runs while `playwright.config.ts` loads, where nothing async can, and loading the YAML parser,
 * the schema and the compiler into every worker that only imports the package would cost each of
 * them more CPU than the rest of its start. A `require()` of them on first use is no way out:
 * Playwright's loader transpiles what `require()` loads from outside `node_modules`.
 *
 * @throws MultiAuthError (`ConfigInvalidError` for a config with errors) as `openConfig` would
 *   throw it, rebuilt from the child's answer; Error when the child could not run.
 * @example
 * const digest = digestInChild({ baseDir, notFoundHint: '', run: runId(process.env) }, process.env);
 * digest.users; // ['alice', 'bob']
 */
export function digestInChild(request: DigestRequest, env: Record<string, string | undefined>): RunDigest {
  // From the sources (tests run them through tsx) the child is the .ts, run through tsx too.
  const child = packageModule('sessions/digest-child');
  const fromSource = child.endsWith('.ts');
  if (!existsSync(child)) throw new Error(`playwright-multiauth is incomplete: ${child} is missing; reinstall the package.`);
  let out: string;
  try {
    out = execFileSync(process.execPath, [...(fromSource ? ['--import', 'tsx'] : []), child], {
      input: JSON.stringify(request),
      env,
      encoding: 'utf8',
      timeout: CHILD_TIMEOUT_MS,
      maxBuffer: MAX_ANSWER_BYTES,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
  } catch (error) {
    const e = error as { signal?: string; stderr?: string };
    const why = e.signal ? `was stopped (${e.signal}) after ${CHILD_TIMEOUT_MS / 1000} s at most` : 'failed';
    throw new Error(`playwright-multiauth: the process that opens the config for the role matrix ${why}.${e.stderr ? `\n${String(e.stderr).slice(0, 4000)}` : ''}`);
  }
  const answer = JSON.parse(out) as DigestAnswer;
  if ('digest' in answer) return answer.digest;
  if ('bug' in answer) throw new Error(`playwright-multiauth: opening the config for the role matrix failed: ${answer.bug}`);
  throw errorFromData(answer.error) ?? new Error('playwright-multiauth: opening the config for the role matrix failed with an unreadable error.');
}

/**
 * The role matrix's digest of the config, synchronously: opened in this process where the
 * package's modules can be required into the module map it already runs from (installed under
 * `node_modules`, or compiled to CommonJS), which spares the runner a Node start and a second
 * load of the parser, schema and compiler before any worker starts; elsewhere (the sources under
 * a TypeScript loader, a link in an ES module project, where a `require` would compile a second
 * copy of each module) in a child process, as {@link digestInChild}.
 *
 * @throws MultiAuthError as `openConfig` throws it; Error when the child could not run.
 * @example
 * const digest = digestNow({ baseDir, notFoundHint: '', run: runId(process.env) }, process.env);
 */
export function digestNow(request: DigestRequest, env: Record<string, string | undefined>): RunDigest {
  const opener = requireNow(() => import('./digest-open.js'));
  return opener ? opener.openDigest(request, env) : digestInChild(request, env);
}
