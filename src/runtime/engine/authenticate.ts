import { MultiAuthError } from '../../core/errors.js';
import type { Redactor } from '../../core/redactor.js';
import type { Plan, PlanCredentials, PlanUser } from '../../compile/index.js';
import { planIdentifiers, planSecrets, registerPlan } from '../../compile/index.js';
import { didYouMean } from '../../core/suggest.js';
import { usablePlanUser } from './find-user.js';
import { emptySession, sessionSecrets } from '../session/apply.js';
import { completeSession } from './complete.js';
import { checkSession } from './check-session.js';
import { mergeRefreshed } from './refresh-merge.js';
import { runProcedure } from './run-procedure.js';
import type { Session, SignInResult } from '../session/session.js';
import type { RetryPolicy } from '../http/retry.js';
import type { SignInEvent } from './sign-in-events.js';
import type { StoredPasskey } from '../session/passkey.js';
import type { PasskeyRun } from './steps/passkey-step.js';
import type { MailReader } from '../mail/reader.js';
import { mailReaderOf } from './mailbox.js';

/** Options of {@link authenticate} and {@link refreshSession}. */
export interface AuthenticateOptions {
  /** Learns every secret of the run (credentials, extracted values, the session) before anything is printed. */
  redactor: Redactor;
  /** The clock, Unix ms (tests); default `Date.now`. */
  now?: () => number;
  /** The session this sign-in replaces: its variables are visible to the procedure, as in a refresh. */
  previous?: SignInResult;
  /** The browser runner handle for browser operations (a Playwright browser, or what opens contexts). */
  browser?: unknown;
  /** How requests retry transient failures; default the process's policy (`MULTIAUTH_RETRIES`). */
  retry?: RetryPolicy;
  /** Told each step, the injections and the session check as they happen (names and statuses only). */
  onEvent?: (event: SignInEvent) => void;
  /**
   * The user's passkey as the store last kept it (its counter; a registered passkey whole): the
   * sign-in continues from it, and its result's `passkey` is what to keep next.
   */
  passkey?: StoredPasskey;
  /**
   * The mailbox of `tech: email` steps, opened on first call; default the process's reader of the
   * plan's `mail` (`mailReaderOf`).
   */
  mail?: () => Promise<MailReader>;
}

/**
 * Signs a user of the plan in and returns the session: the user's static credentials (basic,
 * headers, cookies, query, body) and, when the user has a procedure, what running it produced
 * (injections, cookies the sign-in set, expiry): {@link signInUser}, then `completeSession`.
 * Every secret met on the way is registered with `options.redactor`; errors are
 * {@link MultiAuthError}s naming the user, procedure and step, with nothing secret in their text.
 *
 * @throws MultiAuthError `USER_UNKNOWN` (with a did-you-mean), and whatever a step throws:
 *   `AUTH_HTTP_STATUS`, `AUTH_NETWORK`, `AUTH_TIMEOUT`, `AUTH_REDIRECT`, `TEMPLATE_UNKNOWN_VARIABLE`,
 *   `EXTRACTION_NOT_FOUND`, `INJECTION_VARIABLE_UNSET`, ...
 * @example
 * const session = await authenticate(plan, 'alice', { redactor });
 * applySession(session, { method: 'GET', url: 'https://api.test/me', headers: [] });
 */
export async function authenticate(plan: Plan, userName: string, options: AuthenticateOptions): Promise<Session> {
  return completeSession(plan, await signInUser(plan, userName, options));
}

/**
 * Signs a user of the plan in and returns what the sign-in produced ({@link SignInResult}: nothing
 * the config holds), the form the session cache keeps. A user without a procedure produces an
 * empty result: its whole session is its static credentials.
 *
 * @throws MultiAuthError as {@link authenticate}.
 * @example
 * writeSessionFile(path, key, await signInUser(plan, 'alice', { redactor }));
 */
export async function signInUser(plan: Plan, userName: string, options: AuthenticateOptions): Promise<SignInResult> {
  const user = usablePlanUser(plan, userName);
  registerPlanSecrets(options.redactor, plan);
  let signInBody: string | undefined;
  const produced = await signIn(plan, user, user.procedure, {
    credentials: user.credentials,
    variables: user.variables,
    previous: options.previous?.variables,
    options,
    onResponseBody: (body) => (signInBody = body),
  });
  options.redactor.addLazily(() => sessionSecrets(produced));
  if (user.validation) await checkSession(plan, user, completeSession(plan, produced), { ...options, ...(signInBody === undefined ? {} : { signInBody }) });
  return produced;
}

/**
 * Checks a session made earlier (a cached one) with the user's `validation`, if it has one.
 *
 * @throws MultiAuthError `AUTH_VALIDATION` when the session does not work (any more).
 * @example
 * await checkStoredSession(plan, fromCache, { redactor }); // the server still honours it
 */
export async function checkStoredSession(plan: Plan, session: SignInResult, options: AuthenticateOptions): Promise<void> {
  const user = usablePlanUser(plan, session.user);
  registerPlanSecrets(options.redactor, plan);
  options.redactor.addLazily(() => sessionSecrets(session));
  await checkSession(plan, user, completeSession(plan, session), options);
}

/**
 * Renews a session (spec: UserRefresh) and returns the complete session: {@link refreshSignIn},
 * then {@link completeSession}.
 *
 * @example
 * if (needsRefresh(session, Date.now())) session = await refreshSession(plan, session, { redactor });
 */
export async function refreshSession(plan: Plan, session: SignInResult, options: AuthenticateOptions): Promise<Session> {
  return completeSession(plan, await refreshSignIn(plan, session, options));
}

/**
 * Renews what a sign-in produced (spec: UserRefresh): runs `refresh.procedure` with
 * `refresh.credentials` and `refresh.variables` (compile resolved them: the user's own unless the
 * config gives others) on the refresh's own requests, the session's variables visible to its
 * templates (so `{{refresh_token}}` works). The result is laid over the old one when
 * `refresh.keep` is true, then checked with the user's `validation`. A refresh that fails in any
 * way (refused, a variable it needs never extracted, nothing found, a refreshed session the
 * validation refuses) becomes one fresh sign-in, for every kind of user: a refresh token the server
 * revoked must not fail the user for good. That sign-in's result is returned as it is (origin
 * `signed-in`: nothing of the dead session is kept); only its failure is an error, and that error
 * says the refresh was refused first. A user without `refresh` signs in again. The session's
 * requests carry the user's own credentials afterwards, as before (`completeSession`).
 *
 * @example
 * const renewed = await refreshSignIn(plan, fromCache, { redactor });
 * renewed.origin; // 'refreshed', or 'signed-in' when the refresh was refused
 */
export async function refreshSignIn(plan: Plan, session: SignInResult, given: AuthenticateOptions): Promise<SignInResult> {
  const user = usablePlanUser(plan, session.user);
  // The store's passkey, else the session's: a refresh continues the counter as a sign-in does.
  const passkey = given.passkey ?? session.passkey;
  const options: AuthenticateOptions = passkey === undefined ? given : { ...given, passkey };
  const refresh = user.refresh;
  if (!refresh) return signInUser(plan, user.name, options);
  registerPlanSecrets(options.redactor, plan);
  options.redactor.addLazily(() => sessionSecrets(session));

  try {
    const refreshed = await signIn(plan, user, refresh.procedure, {
      credentials: refresh.credentials,
      variables: refresh.variables,
      previous: session.variables,
      options,
    });
    const merged = mergeRefreshed(session, refreshed, refresh.keep);
    merged.origin = 'refreshed';
    if (refreshed.passkey ?? passkey) merged.passkey = refreshed.passkey ?? passkey;
    options.redactor.addLazily(() => sessionSecrets(merged));
    if (user.validation) await checkSession(plan, user, completeSession(plan, merged), options);
    return merged;
  } catch (refusal) {
    if (!(refusal instanceof MultiAuthError)) throw refusal;
    return signInAfterRefusal(plan, user.name, refusal, options);
  }
}

/** The fresh sign-in that replaces a refused refresh; its failure says what the refresh met first. */
async function signInAfterRefusal(plan: Plan, userName: string, refusal: MultiAuthError, options: AuthenticateOptions): Promise<SignInResult> {
  try {
    return await signInUser(plan, userName, { ...options, previous: undefined });
  } catch (error) {
    if (error instanceof MultiAuthError) error.details.push(`This sign-in replaced a refresh that failed first: ${refusalSummary(refusal)}.`);
    throw error;
  }
}

/** One line for a refused refresh: code, procedure, step and status, never a body (it may echo a token). */
function refusalSummary(error: MultiAuthError): string {
  const { procedure, step, status } = error.context ?? {};
  const where = [procedure === undefined ? undefined : `procedure "${procedure}"`, step === undefined ? undefined : `step ${step + 1}`].filter(Boolean).join(', ');
  return `${error.code}${status === undefined ? '' : ` (HTTP ${status})`}${where ? ` in ${where}` : ''}`;
}

/** Not async itself (its callers await it): one promise less per sign-in. */
function signIn(
  plan: Plan,
  user: PlanUser,
  procedureName: string | undefined,
  run: {
    credentials: PlanCredentials;
    variables: Record<string, string>;
    previous?: Record<string, string>;
    options: AuthenticateOptions;
    onResponseBody?: (body: string) => void;
  },
): Promise<SignInResult> {
  const now = (run.options.now ?? Date.now)();
  const passkey: PasskeyRun = { current: run.options.passkey };
  const withPasskey = (result: SignInResult): SignInResult => {
    if (user.passkey && passkey.current) result.passkey = passkey.current;
    return result;
  };
  if (procedureName === undefined) return Promise.resolve(withPasskey(emptySession(user.name, now)));
  const procedure = plan.procedures[procedureName];
  if (!procedure) {
    throw new MultiAuthError('CONFIG_INVALID', `user "${user.name}" refers to procedure "${procedureName}", which does not exist${didYouMean(procedureName, Object.keys(plan.procedures))}`, {
      path: user.origin,
      context: { user: user.name },
      hint: 'Name a procedure declared under `procedures` (run `multiauth validate`).',
    });
  }
  return runProcedure(plan, user, procedure, {
    credentials: run.credentials,
    variables: run.variables,
    previous: run.previous,
    redactor: run.options.redactor,
    now,
    browser: run.options.browser,
    retry: run.options.retry,
    ...(run.onResponseBody ? { onResponseBody: run.onResponseBody } : {}),
    ...(run.options.onEvent ? { onEvent: run.options.onEvent } : {}),
    ...(user.passkey ? { passkey } : {}),
    ...mailOption(run.options.mail ?? mailReaderOf(plan)),
  }).then(withPasskey);
}

function mailOption(mail: (() => Promise<MailReader>) | undefined): { mail?: () => Promise<MailReader> } {
  return mail ? { mail } : {};
}

const registered = new WeakMap<Redactor, WeakSet<Plan>>();

/** A plan's secrets and identifiers, found once: a plan is not changed after it is compiled, and the search walks every user. */
const namesOfPlan = new WeakMap<Plan, { secrets: string[]; identifiers: string[] }>();

/** Registers the plan's secrets (passwords, credential values, secrets compiled into procedures) once per redactor. */
function registerPlanSecrets(redactor: Redactor, plan: Plan): void {
  let plans = registered.get(redactor);
  if (!plans) registered.set(redactor, (plans = new WeakSet()));
  if (plans.has(plan)) return;
  let names = namesOfPlan.get(plan);
  if (!names) namesOfPlan.set(plan, (names = { secrets: planSecrets(plan), identifiers: planIdentifiers(plan) }));
  registerPlan(redactor, plan, names.secrets, names.identifiers);
  plans.add(plan);
}
