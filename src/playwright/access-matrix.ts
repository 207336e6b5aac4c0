import type { APIRequestContext, TestInfo } from '@playwright/test';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Plan, PlanAccess, PlanAccessRequest } from '../compile/index.js';
import { MultiAuthError } from '../core/errors.js';
import type { Redactor } from '../core/redactor.js';
import { readRegularFile, writeFileAtomically } from '../core/regular-file.js';
// The matrix's classifying and rendering load in its tests (loadAccess): declaring it needs none of them.
import {
  loadAccess,
  type AccessAnswer,
  type AccessCell,
  type ObservedMatrix,
} from '../runtime/index.js';
import { playwrightConfigDir } from './config-dir.js';
import { internalTest } from './fixtures.js';
import { matrixConfig } from './role-matrix.js';
import { toSpecError } from './spec-error.js';

/** Options of {@link accessMatrix}. */
export interface AccessMatrixOptions {
  /** Config path, resolved as `authUsers`' (default MULTIAUTH_CONFIG, then `multiauth.yaml` beside the Playwright config). */
  config?: string;
  /** Only these users of `access.expect`, in this order. */
  users?: string[];
}

/** A body read for `not_match` is cut here: the classification reads no more. */
const BODY_CHARS = 1024 * 1024;
/** The title of the test that attaches the observed matrix (it runs after the cells of its file). */
export const MATRIX_TEST_TITLE = 'access matrix (observed)';

/**
 * Declares the config's access matrix (docs/access.md) as tests of the spec file that calls it:
 * a describe per user of `access.expect` (`anonymous`: no session), a test per request in run
 * order, each sending the request through that user's `authedRequest` (redirects not followed; a
 * deny never signs anyone in again) and failing on an unexpected cell with
 * `editor was allowed to DELETE https://…/comments/1: expected deny — possible broken access control`.
 * A last test attaches the observed matrix (HTML and Markdown) to the report.
 *
 * The tests of the matrix run in order in one worker at a time (unsafe requests after the safe
 * ones, as the CLI sends them), even under `fullyParallel`. Call it at the top level of a spec
 * file: it sets the file's `authConfig` to the config it read.
 *
 * @example
 * // tests/access.spec.ts
 * import { accessMatrix } from 'playwright-multiauth';
 * accessMatrix();
 */
export function accessMatrix(options: AccessMatrixOptions = {}): void {
  const config = matrixConfig(options, playwrightConfigDir());
  const access = config.access;
  if (!access) {
    throw toSpecError(new MultiAuthError('CONFIG_INVALID', `${config.file} has no access matrix`, {
      hint: 'Add an access block (requests and expect) to the config: see docs/access.md.',
    }));
  }
  const users = chosenUsers(access.users, options.users);
  // A worker option: Playwright takes it at the file's top level only (it chooses the worker).
  internalTest.use({ authConfig: config.file });
  internalTest.describe('access matrix', () => {
    internalTest.describe.configure({ mode: 'default' });
    for (const user of users) {
      internalTest.describe(user, () => {
        // `anonymous` is the user without a session, unless the config names a user so.
        internalTest.use({ authUser: config.users.includes(user) ? user : undefined, _authNoReauth: true });
        for (const name of access.requests) {
          internalTest(name, async ({ authedRequest, _multiauth }, testInfo) => {
            const plan = await _multiauth.plan();
            const planAccess = plan.access as PlanAccess;
            const request = planAccess.requests.find((r) => r.name === name) as PlanAccessRequest;
            const { accessCell, classifyAnswer, denyRulesFor, cellText } = await loadAccess();
            const cell = accessCell(classifyAnswer(await send(authedRequest, request), denyRulesFor(plan, planAccess, user)), planAccess.expect[user]?.[name] ?? 'deny');
            keepCell(testInfo, user, name, cell);
            testInfo.annotations.push({ type: 'access', description: `${user} × ${name}: ${cellText(cell)}` });
            if (cell.unexpected) throw await unexpectedCellError(plan, user, request, cell, _multiauth.redactor);
          });
        }
      });
    }
    internalTest(MATRIX_TEST_TITLE, async ({ _multiauth }, testInfo) => {
      const observed = collect(testInfo, users, access.requests);
      // Cells hold statuses, names and paths; masked all the same, as every text shown is.
      await _multiauth.registerConfigSecrets();
      const mask = (text: string) => _multiauth.redactor.redact(text);
      const { matrixHtml, matrixMarkdown } = await loadAccess();
      await testInfo.attach('access matrix.html', { body: mask(matrixHtml(observed)), contentType: 'text/html' });
      await testInfo.attach('access matrix.md', { body: mask(matrixMarkdown(observed)), contentType: 'text/markdown' });
    });
  });
}

async function send(request: APIRequestContext, planned: PlanAccessRequest): Promise<AccessAnswer> {
  const parts = (await loadAccess()).accessRequestParts(planned);
  const headers: Record<string, string> = {};
  for (const [name, value] of parts.headers) headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  try {
    const response = await request.fetch(parts.url, {
      method: parts.method,
      headers,
      ...(parts.body === undefined ? {} : { data: parts.body }),
      maxRedirects: 0,
      failOnStatusCode: false,
    });
    const status = response.status();
    const location = response.headers().location;
    const body = status >= 200 && status < 300 ? (await response.text()).slice(0, BODY_CHARS) : undefined;
    await response.dispose();
    return { url: parts.url, status, ...(location === undefined ? {} : { location }), ...(body === undefined ? {} : { body }) };
  } catch (error) {
    // Playwright's message would quote the request's headers; what failed is enough.
    return { url: parts.url, failure: /timeout/i.test(String(error)) ? 'timed out' : 'network error' };
  }
}

/**
 * The error a test of `accessMatrix()` fails with on an unexpected cell: the cell's sentence and
 * what to fix (the application's check, or `access.expect`). Exported for the docs' quoted-message test.
 *
 * @example
 * throw await unexpectedCellError(plan, 'bob', request, cell, redactor);
 */
export async function unexpectedCellError(plan: Plan, user: string, request: PlanAccessRequest, cell: AccessCell, redactor: Redactor): Promise<unknown> {
  const { cellProblem } = await loadAccess();
  const planUser = plan.users.find((u) => u.name === user);
  // The sentence names the user, method, URL and status: a context line would say "while signing in".
  return toSpecError(new MultiAuthError('ACCESS_UNEXPECTED', cellProblem(user, request, cell), {
    hint: cell.outcome === 'allow' && cell.expected === 'deny'
      ? 'The application let this user do what access.expect says it must not: fix the application\'s check, or access.expect if the rule changed.'
      : cell.outcome === 'error'
        ? 'The request got no verdict: check its URL and the server (a 404 or 400 may mean the object or the request is wrong; add a status to access.deny if it means deny).'
        : `Check ${planUser ? `${user}'s role` : 'the rule'} in the application, or access.expect if the rule changed.`,
  }), redactor);
}

/** Each cell is written to a file: a failed test restarts the worker, so memory would not hold the matrix. */
function cellDir(testInfo: TestInfo): string {
  const key = createHash('sha256').update(`${testInfo.project.name}\0${testInfo.file}\0${testInfo.repeatEachIndex}`).digest('hex').slice(0, 16);
  return join(dirname(testInfo.outputDir), `.access-matrix-${key}`);
}

function keepCell(testInfo: TestInfo, user: string, request: string, cell: AccessCell): void {
  const dir = cellDir(testInfo);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const name = createHash('sha256').update(`${user}\0${request}`).digest('hex').slice(0, 32);
  writeFileAtomically(join(dir, `${name}.json`), JSON.stringify({ user, request, cell }));
}

function collect(testInfo: TestInfo, users: string[], requests: string[]): ObservedMatrix {
  const cells: ObservedMatrix['cells'] = Object.create(null) as ObservedMatrix['cells'];
  for (const user of users) cells[user] = Object.create(null) as Record<string, AccessCell>;
  const dir = cellDir(testInfo);
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json')).slice(0, 1_000_000);
  } catch {
    // No cell ran (filtered out): every cell is "not run".
  }
  for (const name of names) {
    try {
      const kept = JSON.parse(readRegularFile(join(dir, name), { maxBytes: 64 * 1024, followLinks: false })) as { user: string; request: string; cell: AccessCell };
      if (users.includes(kept.user) && requests.includes(kept.request)) (cells[kept.user] as Record<string, AccessCell>)[kept.request] = kept.cell;
    } catch {
      // A cell file being written by nobody else; a broken one is a "not run" cell.
    }
  }
  return { users, requests, cells };
}

function chosenUsers(all: string[], chosen: string[] | undefined): string[] {
  if (!chosen) return all;
  const unknown = chosen.filter((user) => !all.includes(user));
  if (unknown.length) {
    throw toSpecError(new MultiAuthError('USER_UNKNOWN', `not a user of access.expect: ${unknown.map((u) => `"${u}"`).join(', ')}`, {
      hint: `Users of access.expect: ${all.join(', ')}.`,
    }));
  }
  return [...chosen];
}
