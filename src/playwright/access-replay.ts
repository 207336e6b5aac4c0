import type { APIRequestContext, APIResponse, BrowserContext, Request } from 'playwright-core';
import type { TestInfo } from '@playwright/test';
import type { Plan, PlanAccess } from '../compile/index.js';
import { SAFE_METHODS } from '../config/schema/index.js';
import { loadAccess, sendAccessRequest, type OfferedRequest, type ReplayAnswer, type ReplayCell, type ReplayRow, type ReplaySelection, type HeaderPair } from '../runtime/index.js';
import { loadReplayRows } from '../sessions/index.js';
import { redactedUrl } from '../core/urls.js';
import { didYouMean } from '../core/suggest.js';
import { MultiAuthError } from '../core/errors.js';
import { toSpecError } from './spec-error.js';
import { readApiCall, type FetchOptions } from './api-call.js';
import { compileOriginGlob, reachesOrigin } from './scope-origins.js';
import { replayRowsFile } from './run-summary.js';
import type { WorkerAuth } from './worker-auth.js';
import type { AuthUserName } from './user-names.js';

/**
 * `accessReplay` (docs/access.md "Access replay"): after the test, every request it sent as its
 * user is sent again as each user of `as` and as `anonymous`, and the answers compared.
 */
export interface AccessReplayOptions {
  /** The users to replay as (`anonymous`, no session, is always replayed too). */
  as: AuthUserName[];
  /** Replay methods other than GET, HEAD and OPTIONS too (after the test, one at a time, in order). */
  unsafe?: boolean;
  /** Fail the test, once, when it has findings (default: findings are reported, never a failure). */
  fail?: boolean;
}

/** One request the test sent, with what it got (when it could be read). */
interface Recorded extends OfferedRequest {
  headers: HeaderPair[];
  body?: string;
  first: Promise<ReplayAnswer | undefined>;
}

/** A request chosen for the replay, with its pattern. */
type Taken = Recorded & { pattern: string };

const METHODS = new Set(['fetch', 'get', 'post', 'put', 'patch', 'delete', 'head']);
/** Headers never replayed: the owner's credentials (the replaying user's session is applied instead). */
const CREDENTIAL_HEADERS = new Set(['cookie', 'authorization', 'proxy-authorization']);
/** Body characters of the test's own answer kept for the comparison (the matrix's bound). */
const MAX_BODY = 1024 * 1024;

// One run's patterns and count, per worker process: a pattern is replayed once per worker.
const seen = new Set<string>();
const runCount = { value: 0 };

/**
 * One test's replay: records what the test sends as `owner` through `authedRequest` and its pages,
 * and after the test replays it ({@link TestReplay.finish}).
 *
 * @example
 * const replay = await TestReplay.start(auth, 'alice', { as: ['bob'] }, baseURL);
 * const request = replay.recordRequests(authedRequest);
 */
export class TestReplay {
  private readonly recorded: Recorded[] = [];

  private constructor(
    private readonly auth: WorkerAuth,
    private readonly owner: string,
    private readonly options: AccessReplayOptions,
    private readonly plan: Plan,
    private readonly access: Awaited<ReturnType<typeof loadAccess>>,
    private readonly selection: ReplaySelection<Recorded>,
    private readonly baseURL: string | undefined,
  ) {}

  /**
   * Checks the options (every user of `as` configured) and starts recording.
   *
   * @throws MultiAuthError (as a spec receives it) `USER_UNKNOWN` naming the user, with a did-you-mean; `CONFIG_INVALID` for a malformed option.
   */
  static async start(auth: WorkerAuth, owner: string, options: AccessReplayOptions, baseURL: string | undefined, scope: readonly string[]): Promise<TestReplay> {
    if (typeof options !== 'object' || options === null || !Array.isArray(options.as) || !options.as.every((user) => typeof user === 'string')) {
      throw toSpecError(new MultiAuthError('CONFIG_INVALID', 'accessReplay: expected { as: [user, ...], unsafe?: boolean, fail?: boolean }', {
        hint: 'Name the users to replay as, e.g. test.use({ accessReplay: { as: [\'bob\'] } }).',
      }));
    }
    const plan = await auth.plan();
    const names = plan.users.map((user) => user.name);
    for (const user of options.as) {
      if (user !== 'anonymous' && !names.includes(user)) {
        throw toSpecError(new MultiAuthError('USER_UNKNOWN', `accessReplay.as: unknown user "${user}"${didYouMean(user, names)}`, {
          hint: `Use a user of the config (${names.join(', ')}) or "anonymous".`,
        }));
      }
    }
    const access = await loadAccess();
    const globs = scope.map((glob) => compileOriginGlob(glob)).filter((glob) => glob !== undefined);
    const selection = new access.ReplaySelection<Recorded>({ origins: (origin) => globs.some((glob) => reachesOrigin(glob, origin)), unsafe: options.unsafe === true, safeMethods: SAFE_METHODS, seen, runCount });
    return new TestReplay(auth, owner, options, plan, access, selection, baseURL);
  }

  /** `authedRequest` with every call it sends recorded (the caller gets the same answers). */
  recordRequests(context: APIRequestContext): APIRequestContext {
    return new Proxy(context, {
      get: (target, property, receiver) => {
        const value = Reflect.get(target, property, receiver);
        if (typeof property !== 'string' || !METHODS.has(property) || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
        return async (first: string | Request, options: FetchOptions | undefined) => {
          const response = (await (value as (u: unknown, o: unknown) => Promise<APIResponse>).call(target, first, options)) as APIResponse;
          const call = readApiCall(property, first, options, this.baseURL);
          if (call) {
            const body = typeof call.request.body === 'string' ? call.request.body
              : call.request.body && 'json' in call.request.body ? JSON.stringify(call.request.body.json) : undefined;
            const headers = call.request.headers.concat(body !== undefined && typeof call.request.body !== 'string' ? [['Content-Type', 'application/json']] : []);
            this.offer({ method: call.request.method, url: call.request.url, headers, ...(body === undefined ? {} : { body }), first: answerOf(call.request.url, response).catch(() => undefined) });
          }
          return response;
        };
      },
    });
  }

  /** Records the API calls (fetch/XHR) and document loads of the test's pages. */
  watch(context: BrowserContext): void {
    context.on('requestfinished', (request) => {
      const body = request.postData();
      this.offer({
        method: request.method(),
        url: request.url(),
        resourceType: request.resourceType(),
        headers: Object.entries(request.headers()),
        ...(body === null ? {} : { body }),
        first: request.response().then((response) => (response ? answerOf(request.url(), response) : undefined)).catch(() => undefined),
      });
    });
  }

  /**
   * Replays what was recorded: the owner once more, then each user of `as` and `anonymous`;
   * attaches the test's rows (`access replay`), adds them to the run's table, and with `fail`
   * throws naming the findings.
   */
  async finish(testInfo: TestInfo): Promise<void> {
    const { redactor } = this.auth;
    const users = [...new Set([...this.options.as.filter((user) => user !== this.owner && user !== 'anonymous'), 'anonymous'])];
    const rows: ReplayRow[] = [];
    const problems: string[] = [];
    for (const request of this.selection.taken()) {
      const first = await request.first.catch(() => undefined);
      const again = await this.send(this.owner, request);
      const cells = new Map<string, ReplayCell>();
      for (const user of users) cells.set(user, await this.replayAs(user, request, first ?? again, again));
      const { findings } = this.access.judgeReplays(cells);
      const url = redactor.redact(redactedUrl(request.url));
      const replays: ReplayRow['replays'] = Object.create(null) as ReplayRow['replays'];
      for (const [user, cell] of cells) replays[user] = { verdict: cell.verdict, ...(cell.status === undefined ? {} : { status: cell.status }) };
      rows.push({ owner: this.owner, method: request.method.toUpperCase(), url, pattern: redactor.redact(request.pattern), ...(again.status === undefined ? {} : { status: again.status }), replays, findings });
      for (const user of findings) problems.push(this.access.findingText(user, this.owner, request.method.toUpperCase(), url));
    }
    const skipped = this.selection.skipped();
    const report = this.access.replayReport(rows, [skipped]);
    await testInfo.attach('access replay', { body: this.access.replayMarkdown(report), contentType: 'text/markdown' });
    const file = replayRowsFile(process.env);
    if (file !== undefined) (await loadReplayRows()).appendReplayEntry(file, { rows, skipped, out: testInfo.project.outputDir });
    if (this.options.fail && problems.length) {
      throw toSpecError(new MultiAuthError('ACCESS_UNEXPECTED', `access replay: ${problems.length} finding${problems.length === 1 ? '' : 's'}:\n${problems.map((p) => `  ${p}`).join('\n')}`, {
        hint: 'Fix the application\'s check, or, if the access is meant, declare it in access.expect and leave the replay\'s fail off for it.',
      }), redactor);
    }
  }

  private offer(request: Recorded): void {
    const { redactor } = this.auth;
    // The owner's credentials never travel with another user's request.
    request.headers = request.headers.filter(([name, value]) => !CREDENTIAL_HEADERS.has(name.toLowerCase()) && !name.startsWith(':') && redactor.redact(value) === value);
    this.selection.offer(request);
  }

  private async replayAs(user: string, request: Taken, first: ReplayAnswer, again: ReplayAnswer): Promise<ReplayCell> {
    const answer = await this.send(user, request);
    return this.access.replayVerdict(answer, this.access.denyRulesFor(this.plan, this.plan.access ?? defaultAccess(this.plan), user), first, again, { owner: this.identifiers(this.owner), other: this.identifiers(user) });
  }

  /** A user's name and `username` credential: what a page greets it by (never a secret). */
  private identifiers(user: string): string[] {
    const planUser = this.plan.users.find((candidate) => candidate.name === user);
    if (!planUser) return [];
    return [planUser.name, ...(planUser.credentials.username === undefined ? [] : [planUser.credentials.username])];
  }

  /** Sends `request` as `user` (`anonymous`: no session), redirects not followed; a failure is an answer without a status. */
  private async send(user: string, request: Taken): Promise<ReplayAnswer> {
    const planUser = this.plan.users.find((candidate) => candidate.name === user);
    let session;
    if (planUser) {
      try {
        session = (await this.auth.session(user)).session;
      } catch {
        return { url: request.url, failure: `${user} could not be signed in` };
      }
    }
    try {
      return await sendAccessRequest(this.plan, planUser, session, {
        name: request.pattern, method: request.method.toUpperCase() as never, url: request.url,
        headers: request.headers.map(([name, value]) => ({ name, values: [value] })),
        ...(request.body === undefined ? {} : { body: request.body }),
        unsafe: true, origin: [],
      });
    } catch {
      return { url: request.url, failure: 'network error' };
    }
  }
}

/** The matrix's rules when the config has no `access`: deny 401 and 403; anonymous signed out by every user's `on_body`. */
function defaultAccess(plan: Plan): PlanAccess {
  const onBody = [...new Set(plan.users.flatMap((user) => (user.reauth ? user.reauth.onBody ?? [] : [])))];
  return { requests: [], users: [], expect: {}, deny: [401, 403], anonymous: { onBody }, origin: [] };
}

/**
 * What the test got, read while it is there; undefined when its body cannot be read (a closed
 * page's): the owner's answer sent again then stands for both, so nothing is ignored.
 */
async function answerOf(url: string, response: { status(): number; headers(): Record<string, string>; body(): Promise<Buffer> }): Promise<ReplayAnswer | undefined> {
  const headers = response.headers();
  let body = '';
  try {
    body = (await response.body()).subarray(0, MAX_BODY).toString('utf8');
  } catch {
    // A redirect has no body to compare; any other answer unread is no answer to compare with.
    if (response.status() < 300 || response.status() >= 400) return undefined;
  }
  return {
    url, status: response.status(), body,
    ...(headers.location === undefined ? {} : { location: headers.location }),
    ...(headers['content-type'] === undefined ? {} : { contentType: headers['content-type'] }),
  };
}
