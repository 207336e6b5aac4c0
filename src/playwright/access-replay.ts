import type { APIRequestContext, APIResponse, BrowserContext, Request } from 'playwright-core';
import type { TestInfo } from '@playwright/test';
import type { Plan } from '../compile/index.js';
import { SAFE_METHODS } from '../config/schema/index.js';
import { loadAccess, loadReplaySend, type OfferedRequest, type ReplayAnswer, type ReplayClaims, type ReplayPacer, type ReplayRow, type ReplaySelection, type HeaderPair } from '../runtime/index.js';
import { loadReplayClaims, loadReplayRows } from '../sessions/index.js';
import { didYouMean } from '../core/suggest.js';
import { MultiAuthError } from '../core/errors.js';
import { toSpecError } from './spec-error.js';
import { readApiCall, type FetchOptions } from './api-call.js';
import { compileOriginGlob, reachesOrigin } from '../core/origin-glob.js';
import { replayClaimsDir, replayRowsFile } from './run-summary.js';
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
  /** Replayed requests per second to one origin, per worker (default 20). */
  rate?: number;
  /**
   * Seconds of replay at most, per test (default 30) and per run, all workers together (default
   * 300); what is left when one is spent is not replayed (counted `over_limit`).
   */
  maxTime?: { test?: number; run?: number };
}

/** The keys of {@link AccessReplayOptions}: any other is a mistake. */
const OPTION_KEYS = new Set(['as', 'unsafe', 'fail', 'rate', 'maxTime']);

/** One request the test sent, with what it got (when it could be read). */
interface Recorded extends OfferedRequest {
  headers: HeaderPair[];
  body?: string;
  first: Promise<ReplayAnswer | undefined>;
}

const METHODS = new Set(['fetch', 'get', 'post', 'put', 'patch', 'delete', 'head']);
/** Body characters of the test's own answer kept for the comparison (the matrix's bound). */
const MAX_BODY = 1024 * 1024;

/** The run's claims and replay time: in the run's folder, shared by its workers (this process's own when there is none). */
type RunClaims = ReplayClaims & { spentMs(): number; addSpent(ms: number): void };
let runClaims: Promise<RunClaims> | undefined;
/** This worker's pacers, by rate: every test of the worker shares its origins' slots. */
const pacers = new Map<number, ReplayPacer>();

async function claimsOfRun(access: Awaited<ReturnType<typeof loadAccess>>): Promise<RunClaims> {
  runClaims ??= (async () => {
    const dir = replayClaimsDir(process.env);
    if (dir !== undefined) return (await loadReplayClaims()).runReplayClaims(dir);
    const claims = access.memoryClaims();
    let spent = 0;
    return { claim: (key, perRun) => claims.claim(key, perRun), spentMs: () => spent, addSpent: (ms) => void (spent += ms) };
  })();
  return runClaims;
}

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
    private readonly claims: RunClaims,
    private readonly pacer: ReplayPacer,
  ) {}

  /**
   * Checks the options (every user of `as` configured) and starts recording.
   *
   * @throws MultiAuthError (as a spec receives it) `USER_UNKNOWN` naming the user, with a did-you-mean; `CONFIG_INVALID` for a malformed option.
   */
  static async start(auth: WorkerAuth, owner: string, options: AccessReplayOptions, baseURL: string | undefined, scope: readonly string[]): Promise<TestReplay> {
    const mistake = optionMistake(options);
    if (mistake !== undefined) {
      throw toSpecError(new MultiAuthError('CONFIG_INVALID', `accessReplay: ${mistake}; expected { as: [user, ...], unsafe?: boolean, fail?: boolean, rate?: number, maxTime?: { test?: seconds, run?: seconds } }`, {
        hint: 'Name the users to replay as, e.g. test.use({ accessReplay: { as: [\'bob\'] } }); see docs/access.md "Access replay".',
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
    const claims = await claimsOfRun(access);
    const selection = new access.ReplaySelection<Recorded>({ owner, origins: (origin) => globs.some((glob) => reachesOrigin(glob, origin)), unsafe: options.unsafe === true, safeMethods: SAFE_METHODS, claims });
    const rate = options.rate ?? access.DEFAULT_REPLAY_RATE;
    let pacer = pacers.get(rate);
    if (!pacer) pacers.set(rate, (pacer = new access.ReplayPacer(rate)));
    return new TestReplay(auth, owner, options, plan, access, selection, baseURL, claims, pacer);
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
    const { replayRequest, replayingUsers } = await loadReplaySend();
    const context = {
      plan: this.plan, owner: this.owner, users: replayingUsers(this.owner, this.options.as),
      session: async (user: string) => (await this.auth.session(user)).session,
      mask: (text: string) => redactor.redact(text),
      pace: (origin: string) => this.pacer.turn(origin),
    };
    const rows: ReplayRow[] = [];
    const problems: string[] = [];
    const limits = { ...this.access.DEFAULT_REPLAY_TIME, ...this.options.maxTime };
    const started = Date.now();
    const spentBefore = this.claims.spentMs();
    // Safe requests first; then the unsafe ones, one at a time in the order the test sent them.
    const taken = this.selection.taken();
    const ordered = [...taken.filter((request) => SAFE_METHODS.has(request.method.toUpperCase())), ...taken.filter((request) => !SAFE_METHODS.has(request.method.toUpperCase()))];
    let overTime = 0;
    for (const [index, request] of ordered.entries()) {
      const elapsed = Date.now() - started;
      if (elapsed >= limits.test * 1000 || spentBefore + elapsed >= limits.run * 1000) {
        overTime = ordered.length - index;
        break;
      }
      const first = await request.first.catch(() => undefined);
      const { method, url, pattern, headers, body } = request;
      const target = { method, url, pattern, headers, ...(body === undefined ? {} : { body }), ...(first === undefined ? {} : { first }) };
      const { row, problems: found } = await replayRequest(target, context);
      rows.push(row);
      problems.push(...found);
    }
    this.claims.addSpent(Date.now() - started);
    const skipped = this.selection.skipped();
    skipped.over_limit += overTime;
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
    const { url, headers } = this.access.withoutCredentials(request, { isSecret: (value) => redactor.redact(value) !== value });
    request.url = url;
    request.headers = headers;
    this.selection.offer(request);
  }
}

/** What is wrong with the options, or undefined (they are a test's code: checked as a config is). */
function optionMistake(options: unknown): string | undefined {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return 'not an object';
  const unknown = Object.keys(options).find((key) => !OPTION_KEYS.has(key));
  if (unknown !== undefined) return `unknown key "${unknown}"${didYouMean(unknown, [...OPTION_KEYS])}`;
  const { as, unsafe, fail, rate, maxTime } = options as Record<string, unknown>;
  if (!Array.isArray(as) || !as.every((user) => typeof user === 'string')) return '"as" must be a list of user names';
  if (unsafe !== undefined && typeof unsafe !== 'boolean') return '"unsafe" must be true or false';
  if (fail !== undefined && typeof fail !== 'boolean') return '"fail" must be true or false';
  if (rate !== undefined && !isPositive(rate)) return '"rate" must be a number of requests per second above 0';
  if (maxTime === undefined) return undefined;
  if (typeof maxTime !== 'object' || maxTime === null || Array.isArray(maxTime)) return '"maxTime" must be { test?: seconds, run?: seconds }';
  const key = Object.keys(maxTime).find((name) => name !== 'test' && name !== 'run');
  if (key !== undefined) return `unknown key "maxTime.${key}"`;
  for (const [name, value] of Object.entries(maxTime)) if (!isPositive(value)) return `"maxTime.${name}" must be a number of seconds above 0`;
  return undefined;
}

function isPositive(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
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
