import type { Plan, PlanAccess, PlanUser } from '../../compile/index.js';
import type { HeaderPair } from '../http/observation.js';
import type { Session } from '../session/session.js';
import { denyRulesFor } from './request.js';
import { sendAccessRequest } from './send.js';
import { ANONYMOUS, findingText, judgeReplays, replayVerdict, type ReplayCell } from './replay/verdict.js';
import type { ReplayAnswer } from './replay/compare.js';
import type { ReplayRow } from './replay/report.js';
import { redactedUrl } from '../../core/urls.js';

/** One request to replay: what the owner sent (its credentials taken out), with what the owner got then. */
export interface ReplayTarget {
  method: string;
  url: string;
  /** The method and URL pattern (`requestPattern`). */
  pattern: string;
  headers: HeaderPair[];
  body?: string;
  /** The owner's first answer (the test's, the HAR's); absent when unreadable: the owner's answer sent again stands for it. */
  first?: ReplayAnswer;
}

/** How {@link replayRequest} reaches sessions and masks what it reports. */
export interface ReplayContext {
  plan: Plan;
  owner: string;
  /** The replaying users, `anonymous` last ({@link replayingUsers}). */
  users: readonly string[];
  /** A configured user's session; throws when it cannot be had (that user's verdict is `error`). */
  session: (user: string) => Promise<Session>;
  /** Masks a URL or pattern for the report (the run's redactor). */
  mask: (text: string) => string;
  /** Waits for a turn to send to `origin` (the replay's rate bound); none when absent. */
  pace?: (origin: string) => Promise<void>;
}

/**
 * Who replays a request of `owner`: the users of `as` but the owner and `anonymous`, then
 * `anonymous`, always (it tells a public answer from a shared one).
 *
 * @example
 * replayingUsers('alice', ['bob', 'alice']); // ['bob', 'anonymous']
 */
export function replayingUsers(owner: string, as: readonly string[]): string[] {
  return [...new Set([...as.filter((user) => user !== owner && user !== ANONYMOUS), ANONYMOUS])];
}

/**
 * Replays one request (issue 38): sends it once more as the owner, then as every replaying user
 * (`anonymous` without a session), judges each answer against the owner's two and returns the
 * report's row, with each finding as a sentence. Used by `accessReplay` and `multiauth replay`.
 * Redirects are not followed, nobody signs in again; a failed send is an `error` verdict.
 *
 * @example
 * const { row, problems } = await replayRequest(target, { plan, owner: 'alice', users: ['bob', 'anonymous'], session, mask });
 */
export async function replayRequest(target: ReplayTarget, context: ReplayContext): Promise<{ row: ReplayRow; problems: string[] }> {
  const { plan, owner } = context;
  const access = plan.access ?? defaultReplayAccess(plan);
  const again = await send(context, owner, target);
  const cells = new Map<string, ReplayCell>();
  for (const user of context.users) {
    const answer = await send(context, user, target);
    const names = { owner: greetedAs(plan, owner), other: greetedAs(plan, user) };
    cells.set(user, replayVerdict(answer, denyRulesFor(plan, access, user), target.first ?? again, again, names));
  }
  const { findings } = judgeReplays(cells);
  const method = target.method.toUpperCase();
  const url = context.mask(redactedUrl(target.url));
  const replays: ReplayRow['replays'] = Object.create(null) as ReplayRow['replays'];
  for (const [user, cell] of cells) replays[user] = { verdict: cell.verdict, ...(cell.status === undefined ? {} : { status: cell.status }) };
  const row: ReplayRow = { owner, method, url, pattern: context.mask(target.pattern), ...(again.status === undefined ? {} : { status: again.status }), replays, findings };
  return { row, problems: findings.map((user) => findingText(user, owner, method, url)) };
}

/** A user's name and `username` credential: what a page greets it by (never a secret). */
function greetedAs(plan: Plan, user: string): string[] {
  const planUser = plan.users.find((candidate) => candidate.name === user);
  if (!planUser) return [];
  return [planUser.name, ...(planUser.credentials.username === undefined ? [] : [planUser.credentials.username])];
}

/** The matrix's rules when the config has no `access`: deny 401 and 403; anonymous signed out by every user's `on_body`. */
export function defaultReplayAccess(plan: Plan): PlanAccess {
  const onBody = [...new Set(plan.users.flatMap((user) => (user.reauth ? user.reauth.onBody ?? [] : [])))];
  return { requests: [], users: [], expect: {}, deny: [401, 403], anonymous: { onBody }, origin: [] };
}

/** Sends `target` as `user` (`anonymous`: no session); a failure is an answer without a status. */
async function send(context: ReplayContext, user: string, target: ReplayTarget): Promise<ReplayAnswer> {
  const planUser: PlanUser | undefined = context.plan.users.find((candidate) => candidate.name === user);
  let session: Session | undefined;
  if (planUser) {
    try {
      session = await context.session(user);
    } catch {
      return { url: target.url, failure: `${user} could not be signed in` };
    }
  }
  if (context.pace) await context.pace(URL.canParse(target.url) ? new URL(target.url).origin : target.url);
  try {
    return await sendAccessRequest(context.plan, planUser, session, {
      name: target.pattern, method: target.method.toUpperCase() as never, url: target.url,
      headers: target.headers.map(([name, value]) => ({ name, values: [value] })),
      ...(target.body === undefined ? {} : { body: target.body }),
      unsafe: true, origin: [],
    });
  } catch {
    return { url: target.url, failure: 'network error' };
  }
}
