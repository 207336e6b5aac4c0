import type { Redactor } from '../../core/redactor.js';
import type { Plan, PlanCredentials, PlanOperation, PlanProcedure, PlanUser } from '../../compile/index.js';
import { withContext } from '../../core/error-context.js';
import { setOwn } from '../../core/json-path.js';
import { MultiAuthError } from '../../core/errors.js';
import { computeExpiry } from './expiry.js';
import { extract } from './extract/index.js';
import { emptySession } from '../session/apply.js';
import { passkeySeed, storablePasskey } from '../session/passkey.js';
import { inject, resolveInjectionValue } from './inject.js';
import { hasCookies, jarContents, newCookieJar } from '../http/cookie-jar.js';
import type { SignInResult } from '../session/session.js';
import { runStep } from './steps/table.js';
import { planCertificates } from '../http/client-certificates.js';
import type { StepContext } from './steps/step.js';
import type { PasskeyRun } from './steps/passkey-step.js';
import type { RetryPolicy } from '../http/retry.js';
import { initialScope } from '../template/variables.js';
import type { WebAuthnSigner } from '../template/webauthn.js';
import { usesSignInValues } from '../template/sign-in-values.js';
import { signInValues } from '../template/functions.js';
import { exchangeViews, type SignInEvent } from './sign-in-events.js';
import { explainFailedStep } from './refused-answer.js';
import { emptyObservation, type Observation, type ObservedCookie, type OriginStorage } from '../http/observation.js';
import type { MailReader } from '../mail/reader.js';
import { closeBrowserSession, type BrowserSession } from './steps/browser-session.js';

/** What one run of a procedure needs besides the plan, the user and the procedure. */
export interface ProcedureRun {
  credentials: PlanCredentials;
  variables: Record<string, string>;
  /** Variables of the session being refreshed; visible to templates. */
  previous?: Record<string, string>;
  redactor: Redactor;
  /** Unix ms when the run starts: the session's `createdAt`. */
  now: number;
  browser?: unknown;
  /** How requests retry transient failures; default the process's policy. */
  retry?: RetryPolicy;
  /** Told the body of each operation's last response, in order (a failed session check quotes the last). */
  onResponseBody?: (body: string) => void;
  /** Told each step as it ends, and the injections (names only): `multiauth login --verbose`. */
  onEvent?: (event: SignInEvent) => void;
  /** The user's passkey through the run (users with `passkey`): browser steps seed it and update it. */
  passkey?: PasskeyRun;
  /**
   * The process's mail reader, opened on first call (`mailReaderOf`): a procedure with a
   * `tech: email` step asks for it when it starts, and takes its cursor before its first operation.
   */
  mail?: () => Promise<MailReader>;
}

/**
 * Runs a procedure for a user and returns what it produced: the cookies the sign-in was given, the
 * procedure's injections, the expiry, the digest challenge, and the variables it extracted or
 * stored (with those of `previous` that the config does not set). Nothing the config holds: the
 * user's static credentials are folded in by `completeSession`.
 *
 * Operations run in order; each one's extractions read what that operation observed and add to the
 * scope of the next ones (a later extraction overwrites). Every extracted value is registered with
 * the redactor the moment it is read. Errors carry the user, procedure and step, redacted.
 *
 * @example
 * const session = await runProcedure(plan, user, plan.procedures['login']!, {
 *   credentials: user.credentials, variables: user.variables, redactor, now: Date.now(),
 * });
 */
export async function runProcedure(plan: Plan, user: PlanUser, procedure: PlanProcedure, run: ProcedureRun): Promise<SignInResult> {
  const scope = initialScope({ credentials: run.credentials, variables: run.variables, previous: run.previous });
  if (usesSignInValues(procedure)) {
    // Fresh for this sign-in; a variable the user declares under one of these names wins.
    for (const [name, value] of Object.entries(signInValues())) if (!Object.hasOwn(run.variables, name)) scope[name] = value;
    run.redactor.add(scope['pkce_verifier'] ?? '');
  }
  // Recorded steps branch on it (`if | "${passkey_id}" === ""`): register a passkey, or sign in with it.
  if (user.passkey && !Object.hasOwn(run.variables, 'passkey_id')) scope['passkey_id'] = passkeySeed(user, run.passkey?.current)?.id ?? '';
  const jar = newCookieJar();
  const session: SignInResult = emptySession(user.name, run.now);
  const extractedNames: string[] = [];
  /** Variables a step stored or an extraction read: what the sign-in produced. */
  const produced = new Set<string>();
  let firstExtracted: string | undefined;
  const base = { user: user.name, procedure: procedure.name };
  const webauthn = passkeySigner(user, run.passkey);

  const clientCertificates = user.mtls && plan.mtls.length ? planCertificates(plan) : undefined;
  // Before the first operation: real applications deliver the mail before they answer the request that sends it.
  const mail = procedure.operations.some((op) => op.tech === 'email') ? await mailCursor(run, base) : undefined;
  const browserSession: BrowserSession = {};
  /** What the sign-in's browser context holds after its latest browser step (one context: the latest says all). */
  let browserState: { cookies?: ObservedCookie[]; origins?: OriginStorage[] } = {};
  try {
    for (let index = 0; index < procedure.operations.length; index++) {
      const op = procedure.operations[index] as PlanOperation;
      const where = { user: user.name, procedure: procedure.name, step: index, path: op.origin, ...(webauthn && { webauthn }) };
      /** What the step observed, known even when it fails: verbose lists its requests, the error quotes its answer. */
      let observed: Observation | undefined;
      const ctx: StepContext = {
        plan, user, credentials: run.credentials, scope, where, redactor: run.redactor, jar, browser: run.browser, clientCertificates, retry: run.retry,
        observed: (observation) => (observed = observation),
        ...(run.passkey ? { passkey: run.passkey } : {}),
        ...(mail ? { mail } : {}),
        browserSession,
      };
      // What only events need is made only when someone listens: a sign-in that allocates less costs less.
      const { onEvent } = run;
      const started = onEvent ? performance.now() : 0;
      try {
        const result = await runStep(op, ctx);
        const stepExtracted: string[] | undefined = onEvent ? [] : undefined;
        const last = result.observation.responses.at(-1);
        if (last?.body !== undefined && run.onResponseBody) run.onResponseBody(last.body);
        if (result.variables) {
          for (const [name, value] of Object.entries(result.variables)) {
            run.redactor.add(value);
            scope[name] = value;
            produced.add(name);
          }
        }
        for (const extraction of op.extractions) {
          const value = extract(result.observation, extraction, where);
          if (value === undefined) continue;
          run.redactor.add(value);
          scope[extraction.name] = value;
          extractedNames.push(extraction.name);
          stepExtracted?.push(extraction.name);
          // A code or link from a mail is used once, in this sign-in: the session (and its cache) never keeps it.
          if (op.tech === 'email') produced.delete(extraction.name);
          else produced.add(extraction.name);
          firstExtracted ??= value;
        }
        onEvent?.({
          kind: 'step', ...stepView(procedure, index, op), ...exchangeViews(result.observation), ms: performance.now() - started,
          extracted: stepExtracted ?? [], stored: Object.keys(result.variables ?? {}),
        });
        if (result.digest) {
          // The username and password are the config's: completeSession puts them back.
          const { username: _username, password: _password, ...challenge } = result.digest;
          session.digest = challenge;
        }
        if (op.tech === 'browser') browserState = { cookies: result.cookies, origins: result.origins };
        else {
          if (result.origins) session.origins.push(...result.origins);
          if (result.cookies) session.cookies.push(...result.cookies);
        }
      } catch (error) {
        onEvent?.({ kind: 'step-failed', ...stepView(procedure, index, op), ...exchangeViews(observed ?? emptyObservation()), ms: performance.now() - started });
        const explained = op.tech === 'browser' ? {} : explainFailedStep(error, observed, run.redactor);
        throw withContext(asMultiAuthError(error), { context: { ...base, step: index, stepKind: stepKind(op) }, ...explained }, run.redactor);
      }
    }
  } finally {
    await closeBrowserSession(browserSession);
  }
  if (browserState.origins) session.origins.push(...browserState.origins);
  if (browserState.cookies) session.cookies.push(...browserState.cookies);

  if (hasCookies(jar)) session.cookies.push(...(await jarContents(jar)));
  try {
    for (const injection of procedure.injections) {
      inject(session, injection, resolveInjectionValue(injection, scope, firstExtracted, base));
    }
    if (procedure.injections.length) {
      run.onEvent?.({ kind: 'injected', procedure: procedure.name, injections: procedure.injections.map(({ location, key }) => ({ location, key })) });
    }
  } catch (error) {
    throw withContext(error, { context: base }, run.redactor);
  }
  session.expiresAt = computeExpiry({
    createdAt: run.now,
    sessionSeconds: user.refresh?.sessionSeconds,
    lifetimeSeconds: plan.lifetime,
    variables: scope,
    extractedNames,
  });
  session.variables = producedVariables(scope, produced, run);
  return session;
}

/**
 * The user's passkey for `webauthn_assertion()`: the credential `passkeySeed` gives (the config's,
 * continuing from the store's counter, or the one a browser sign-in registered), read when a
 * template asks, since a browser step before may have registered it. Each assertion takes the
 * counter one further and keeps it in `run`, which the sign-in's result (and so the store) keeps.
 */
function passkeySigner(user: PlanUser, run: PasskeyRun | undefined): WebAuthnSigner | undefined {
  if (!user.passkey) return undefined;
  const holder: PasskeyRun = run ?? { current: undefined };
  return {
    credential: () => {
      const seed = passkeySeed(user, holder.current);
      return seed === undefined ? 'unregistered' : { rp_id: seed.rpId, id: seed.id, user_handle: seed.userHandle, private_key: seed.privateKey };
    },
    nextCounter: () => {
      const seed = passkeySeed(user, holder.current);
      if (seed === undefined) throw new Error('nextCounter: the user has no credential');
      // A 32-bit counter that wrapped would look like a clone to the relying party: it stays at the top.
      const next = Math.min(seed.signCount + 1, 0xffffffff);
      holder.current = storablePasskey(user, { ...seed, signCount: next });
      return next;
    },
  };
}

/**
 * The variables a sign-in keeps for its refresh: those it produced, and those of the session it
 * refreshes that the config does not set (a refresh token from the first sign-in).
 */
function producedVariables(scope: Record<string, string>, produced: Set<string>, run: ProcedureRun): Record<string, string> {
  const { credentials, variables, previous } = run;
  // setOwn: a variable named __proto__ becomes a property, never a prototype.
  const kept: Record<string, string> = {};
  if (previous) {
    for (const name of Object.keys(previous)) {
      const fromConfig = Object.hasOwn(variables, name) || (name === 'username' && credentials.username !== undefined) || (name === 'password' && credentials.password !== undefined);
      if (!fromConfig) setOwn(kept, name, previous[name]);
    }
  }
  for (const name of produced) setOwn(kept, name, scope[name]);
  return kept;
}

/**
 * The mailbox and the point in it this run starts from. Only mail after it counts: never "the
 * latest mail to X", which may be an earlier run's or an earlier sign-in's code.
 */
async function mailCursor(run: ProcedureRun, base: { user: string; procedure: string }): Promise<NonNullable<StepContext['mail']>> {
  if (!run.mail) {
    throw new MultiAuthError('CONFIG_INVALID', 'this sign-in waits for a mail, and the config has no top-level "mail" saying where to read it', {
      context: base,
      hint: 'Add mail: { smtp: { port: 2525 } } (a sink multiauth runs), or mail: { mailpit: URL } or { maildev: URL } (run multiauth validate).',
    });
  }
  try {
    const reader = await run.mail();
    return { reader, cursor: await reader.cursor() };
  } catch (error) {
    throw withContext(asMultiAuthError(error), { context: base }, run.redactor);
  }
}

/** How events name a step. */
function stepView(procedure: PlanProcedure, step: number, op: PlanOperation): { procedure: string; step: number; stepKind: string } {
  return { procedure: procedure.name, step, stepKind: stepKind(op) };
}

/** What errors call a step: its `tech`, or `curl` for a request the config wrote as a curl command. */
function stepKind(op: PlanOperation): string {
  return op.tech === 'http' && op.source ? op.source.kind : op.tech;
}

/**
 * Any error met in a step as a `MultiAuthError`: a bug (a `TypeError`, a `RangeError` from data the
 * code did not expect) must still name the user and step, never print a stack trace.
 */
function asMultiAuthError(error: unknown): unknown {
  if (error instanceof MultiAuthError) return error;
  const text = (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).split('\n')[0]!.slice(0, 300);
  return new MultiAuthError('INTERNAL', `internal error: ${text}`, {
    cause: error,
    hint: 'This is a bug of playwright-multiauth, met on this data: please report it with the config\'s shape and the server\'s answer (without secrets).',
  });
}
