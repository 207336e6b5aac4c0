import type { PlanAccessRequest, PlanUser } from '../compile/index.js';
import { MultiAuthError } from '../core/errors.js';
import { withContext } from '../core/error-context.js';
import {
  authenticate,
  loadAccess,
  sendAccessRequest,
  type AccessCell,
  type AuthenticateOptions,
  type ObservedMatrix,
  type Session,
} from '../runtime/index.js';
import type { OpenedConfig } from './open-config.js';
import { DEFAULT_MATRIX_PARALLEL } from '../core/matrix-parallel.js';


/** Options of {@link runAccessMatrix}. */
export interface AccessMatrixOptions {
  /** Requests (and sign-ins) at once; default {@link DEFAULT_MATRIX_PARALLEL}. */
  parallel?: number;
  /** The browser for users who sign in through one. */
  browser?: AuthenticateOptions['browser'];
  /** Told each user whose sign-in (or session check) failed, the error masked: that user's cells are errors. */
  onSignInFailure?: (user: string, error: MultiAuthError) => void;
  /**
   * The users to run (`anonymous` included or not), instead of those `access.expect` lists: a user
   * it does not list is expected to be denied everything. `multiauth matrix --update` runs everyone.
   */
  users?: readonly string[];
}

/**
 * Runs the config's access matrix (docs/access.md): signs every user of `access.expect` in once
 * (its session check included), then sends every request as every user, a few at a time; the safe
 * requests first, then each unsafe request in declared order, one at a time, as the users expected
 * to be denied first (so that they meet the object before someone allowed deletes it). A deny is an
 * answer: nothing signs in again.
 *
 * @throws MultiAuthError `CONFIG_INVALID` when the config has no `access`.
 * @example
 * const observed = await runAccessMatrix(await openConfig({ ... }), { parallel: 8 });
 * observed.cells.editor['delete a comment']; // { outcome: 'deny', status: 403, expected: 'deny', unexpected: false }
 */
export async function runAccessMatrix(opened: OpenedConfig, options: AccessMatrixOptions = {}): Promise<ObservedMatrix> {
  const { plan, redactor } = opened;
  const access = plan.access;
  if (!access) {
    throw new MultiAuthError('CONFIG_INVALID', `${opened.file} has no access matrix`, {
      hint: 'Add an access block (requests and expect) to the config: see docs/access.md.',
    });
  }
  const parallel = Math.max(1, options.parallel ?? DEFAULT_MATRIX_PARALLEL);
  const { accessCell, classifyAnswer, denyRulesFor } = await loadAccess();
  const runUsers = [...(options.users ?? access.users)];
  const users = new Map<string, PlanUser>(plan.users.map((user) => [user.name, user]));
  const sessions = new Map<string, Session | MultiAuthError>();
  await bounded(runUsers.filter((name) => users.has(name)), parallel, async (name) => {
    try {
      sessions.set(name, await authenticate(plan, name, { redactor, ...(options.browser ? { browser: options.browser } : {}) }));
    } catch (error) {
      const shown = withContext(error, { context: {} }, redactor);
      const failure = shown instanceof MultiAuthError ? shown : new MultiAuthError('INTERNAL', `internal error: ${redactor.redact(String(error)).slice(0, 200)}`, { cause: error });
      sessions.set(name, failure);
      options.onSignInFailure?.(name, failure);
    }
  });

  const cells: ObservedMatrix['cells'] = Object.create(null) as ObservedMatrix['cells'];
  for (const user of runUsers) cells[user] = Object.create(null) as Record<string, AccessCell>;
  const run = async (user: string, request: PlanAccessRequest): Promise<void> => {
    const expected = access.expect[user]?.[request.name] ?? 'deny';
    const session = sessions.get(user);
    if (session instanceof MultiAuthError) {
      (cells[user] as Record<string, AccessCell>)[request.name] = { outcome: 'error', expected, unexpected: true, why: `sign-in failed (${session.code})` };
      return;
    }
    const answer = await sendAccessRequest(plan, users.get(user), session, request);
    (cells[user] as Record<string, AccessCell>)[request.name] = accessCell(classifyAnswer(answer, denyRulesFor(plan, access, user)), expected);
  };

  const safe = access.requests.filter((request) => !request.unsafe);
  await bounded(safe.flatMap((request) => runUsers.map((user) => ({ user, request }))), parallel, ({ user, request }) => run(user, request));
  for (const request of access.requests.filter((r) => r.unsafe)) {
    const order = [...runUsers].sort((a, b) => rank(access.expect[a]?.[request.name]) - rank(access.expect[b]?.[request.name]));
    for (const user of order) await run(user, request);
  }
  return { users: runUsers, requests: access.requests.map((request) => request.name), cells };
}

/** Users expected to be denied go first on an unsafe request; those allowed (who may delete the object) last. */
function rank(expected: AccessCell['expected'] | undefined): number {
  if (expected === 'deny' || (typeof expected === 'number' && expected >= 400)) return 0;
  return 1;
}

async function bounded<T>(items: readonly T[], parallel: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
}
