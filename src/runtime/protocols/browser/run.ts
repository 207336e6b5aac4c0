import { awaitFreshTotp } from '../../template/template.js';
import type { BrowserContext, Page } from 'playwright-core';
import type { PlanAuthorization, PlanBrowserOperation } from '../../../compile/index.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { redactedUrl } from '../../../core/urls.js';
import { authorizationCode, defaultLogin } from './authorize.js';
import { catchRedirect, cleanText } from './redirect-catch.js';
import type { BrowserCommand, BrowserTest } from '../../../config/index.js';
import { MultiAuthError, isMultiAuthError } from '../../../core/errors.js';
import type { ConfigPath } from '../../../core/path.js';
import type { Observation, ObservedCookie } from '../../http/observation.js';
import type { OriginStorage } from '../../session/session.js';
import type { SecretSink, TemplateScope, TemplateWhere } from '../../template/template.js';
import type { ArgSpec } from './args.js';
import { BROWSER_COMMANDS, isDisabledCommand, type BrowserCommandSpec } from './commands.js';
import { BrowserBudget, type BrowserBudgetLimits } from './budget.js';
import { buildFlow, type FlowStep } from './control-flow.js';
import { BrowserVariables, expandKeys, expandText } from './expand.js';
import { StepFailure, stepError } from './failure.js';
import { locatorCandidates } from './locators.js';
import { ContextRecorder } from './observe.js';
import { BrowserRun, type CommandInput } from './state.js';
import { WindowTracker } from './windows.js';
import { noteMessagesBeforeSubmit, watchRefusal } from './refusal-watch.js';

/** What a browser step produced: what extractions read, the variables it stored, the storage it left. */
export interface BrowserStepResult {
  observation: Observation;
  /** Variables set by store*, executeScript, storeWindowHandle and opensWindow, as text. */
  variables: Record<string, string>;
  storage: { cookies: ObservedCookie[]; origins: OriginStorage[] };
  /** The page the step ended on (absent when it was closed): where a next browser step of the sign-in continues. */
  page?: Page;
}

/** Input of {@link runBrowserStep}. */
export interface BrowserStepInput {
  op: PlanBrowserOperation;
  /** A context the caller made (headers, cookies: see prepareContext) and will close. */
  context: BrowserContext;
  /** The page to continue in (the one an earlier step of the sign-in ended on); default the context's first. */
  page?: Page;
  /** Variables the procedure sees (secrets: never printed). */
  scope: TemplateScope;
  where: { user: string; procedure?: string; step?: number };
  /** Masks every known secret in text about to be shown. */
  redact: (text: string) => string;
  /** Where values that templates derive from secrets go (the run's Redactor): a TOTP code, `basic(…)`. */
  secrets?: SecretSink;
  /** Where failure screenshots go; default `test-results/multiauth/` (else the OS temp dir). */
  screenshotDir?: string;
  /** Receives `echo` lines (redacted). */
  log?: (line: string) => void;
  /** Bounds of the whole operation; default {@link BROWSER_BUDGET} (tests use small ones). */
  budget?: BrowserBudgetLimits;
  /** The context's proxy (the operation's, else the config's): requests made for the browser take it too. */
  proxy?: string;
  /** Given the step's observation as it starts (it grows as the page works): a failed step still lists its requests. */
  observed?: (observation: Observation) => void;
}

/** The variable an authorization step leaves its code in (`oauth_authz_code_browser`). */
const AUTHORIZATION_CODE = 'authorization_code';

/** Seconds each command may take when the operation does not say (options.wait_for_seconds). */
export const DEFAULT_WAIT_SECONDS = 10;

/**
 * Runs a Selenium IDE project (every test, every command, in order, following `if`, `while`,
 * `times`, `forEach`, `do` … `repeatIf` and `break`) in a page of `context`, and returns what the
 * browser did. The first failing command stops the step, and so does the operation's budget
 * ({@link BROWSER_BUDGET}: commands and loop rounds of all its tests together, and wall time).
 *
 * @throws MultiAuthError `BROWSER_STEP_FAILED` naming the test, the command (1-based index, name,
 *   target), the cause and a screenshot (the budget's too: at the command it stopped before);
 *   `TEMPLATE_UNKNOWN_VARIABLE` for an unknown `${name}` or
 *   `{{name}}`; `BROWSER_UNKNOWN_COMMAND` for a command missing from {@link BROWSER_COMMANDS};
 *   `CONFIG_INVALID`, before anything runs, for blocks that do not nest (an `end` without an `if`…).
 * @example
 * const context = await browser.newContext();
 * const { observation, variables } = await runBrowserStep({ op, context, scope: { username: 'alice', password },
 *   where: { user: 'alice', procedure: 'login', step: 0 }, redact: (t) => redactor.redact(t) });
 * await context.close();
 */
export async function runBrowserStep(input: BrowserStepInput): Promise<BrowserStepResult> {
  const { op, context } = input;
  const vars = new BrowserVariables(input.scope, input.secrets);
  const projectUrl = op.project.url
    ? expandText(op.project.url, vars, { ...input.where, path: [...op.origin, 'project', 'url'] })
    : undefined;
  const page = (input.page && !input.page.isClosed() ? input.page : undefined) ?? context.pages()[0] ?? (await context.newPage());
  const recorder = new ContextRecorder(context);
  input.observed?.(recorder.observation);
  const windows = new WindowTracker(context, page);
  const run = new BrowserRun(context, page, vars, windows, recorder.observation, {
    timeoutMs: (op.waitForSeconds ?? DEFAULT_WAIT_SECONDS) * 1000,
    baseUrl: projectUrl,
    log: input.log,
    redact: input.redact,
    budget: new BrowserBudget(input.budget),
  });
  const flows = op.project.tests.map((test, t) => testFlow(test, [...op.origin, 'project', 'tests', t], input));
  const authorization = op.authorize ? await startAuthorization(op.authorize, run, input) : undefined;
  try {
    for (const [t, test] of op.project.tests.entries()) {
      // The provider sent the browser back (or its pages could not be loaded): the recorded steps after that are not needed.
      const done = (): boolean => authorization !== undefined && (authorization.redirect.url !== undefined || authorization.redirect.failure !== undefined);
      await runTest(run, input, test, flows[t] ?? [], [...op.origin, 'project', 'tests', t], done);
    }
    if (authorization) await authorization.finish();
  } catch (error) {
    recorder.stop();
    // A provider page that could not be loaded is why a command failed after it.
    throw authorization?.redirect.failure ?? error;
  } finally {
    windows.stop();
    await authorization?.redirect.stop();
  }
  const { observation, storage } = await recorder.finish(run.page.isClosed() ? undefined : run.page.url());
  return { observation, variables: vars.stored(), storage, ...(run.page.isClosed() ? {} : { page: run.page }) };
}

/**
 * Opens the authorization request with the redirect URI intercepted; `finish` runs the default
 * login when there are no recorded steps, waits for the redirect, and stores its code as
 * `authorization_code` (a secret).
 */
async function startAuthorization(authorize: PlanAuthorization, run: BrowserRun, input: BrowserStepInput) {
  const { op, where } = input;
  const timeoutMs = (op.waitForSeconds ?? DEFAULT_WAIT_SECONDS) * 1000;
  const redirect = await catchRedirect(run.context, authorize.redirectUri, {
    page: run.page,
    timeoutMs,
    where,
    redact: input.redact,
    ...(input.proxy ? { proxy: input.proxy } : {}),
  });
  const url = expandText(authorize.url, run.vars, { ...where, path: op.origin });
  await run.page.goto(url, { timeout: timeoutMs }).catch(async (error: unknown) => {
    // The watcher's exchange, timed alike, says why better than the browser's own timeout does.
    const outcome = redirect.url ?? redirect.failure ?? (await settledBy(redirect.settled, Date.now() + 1000));
    if (outcome instanceof MultiAuthError) throw outcome;
    // A redirect straight back (a session the provider still has) aborts the navigation: fine.
    if (!outcome) throw new MultiAuthError('AUTH_NETWORK', `the authorization request could not be opened: ${cleanText(error instanceof Error ? error.message : String(error), input.redact)}`, {
      context: { user: where.user, procedure: where.procedure, step: where.step, stepKind: 'browser (authorization)', url: redactedUrl(url) },
      hint: 'Check authorization_url and that the provider is reachable from this machine.',
    });
  });
  const finish = async (): Promise<void> => {
    const deadline = Date.now() + Math.max(timeoutMs, 30_000);
    const over = (): boolean => redirect.url !== undefined || redirect.failure !== undefined;
    if (authorize.defaultLogin && !over()) {
      const scope = run.vars.scope();
      const secret = scope['totp_secret'];
      await defaultLogin(run.page, {
        username: scope['username'],
        password: scope['password'],
        ...(secret === undefined ? {} : { oneTimeCode: async () => {
          await awaitFreshTotp('{{ totp(totp_secret) }}', scope);
          return expandText('{{ totp(totp_secret) }}', run.vars, { ...where, path: op.origin });
        } }),
      }, over, deadline, where).catch((error: unknown) => {
        throw redirect.failure ?? loginError(error, run, input);
      });
    }
    const arrived = redirect.url ?? redirect.failure ?? (await settledBy(redirect.settled, deadline));
    if (arrived instanceof MultiAuthError) throw arrived;
    if (!arrived) {
      throw new MultiAuthError('BROWSER_STEP_FAILED', 'the browser was not sent to the redirect URI in time', {
        context: { user: where.user, procedure: where.procedure, step: where.step, stepKind: 'browser (authorization)', url: redactedUrl(run.page.url()) },
        hint: 'Check that the recorded steps end the login (and confirm any consent page), or raise wait_for_seconds.',
      });
    }
    run.vars.set(AUTHORIZATION_CODE, authorizationCode(arrived, run.vars.has('state') ? String(run.vars.get('state')) : undefined, where));
  };
  return { redirect, finish };
}

/** What `settled` resolved with by `deadline` (Unix ms), else undefined; no timer is left behind. */
async function settledBy<T>(settled: Promise<T>, deadline: number): Promise<T | undefined> {
  const stop = new AbortController();
  try {
    return await Promise.race([settled, sleep(Math.max(0, deadline - Date.now()), undefined, { signal: stop.signal }).catch(() => undefined)]);
  } finally {
    stop.abort();
  }
}

/** A browser error of the default login (an action that timed out) as a located error: first line, masked. */
function loginError(error: unknown, run: BrowserRun, input: BrowserStepInput): unknown {
  if (error instanceof MultiAuthError) return error;
  const { where } = input;
  return new MultiAuthError('BROWSER_STEP_FAILED', `default login: ${cleanText(error instanceof Error ? error.message : String(error), input.redact)}`, {
    context: { user: where.user, procedure: where.procedure, step: where.step, stepKind: 'browser (default login)', url: run.page.isClosed() ? undefined : redactedUrl(run.page.url()) },
    hint: 'Record the login steps (`project`) if the provider\'s pages are unusual, or raise wait_for_seconds.',
  });
}

/**
 * The block structure of a test, refused before anything runs when its blocks do not nest (a
 * config that skipped `multiauth validate`, which reports the same problems at file:line:col).
 */
function testFlow(test: BrowserTest, path: ConfigPath, input: BrowserStepInput): FlowStep[] {
  const { steps, issues } = buildFlow(test.commands.map((command) => command.command));
  const [first] = issues;
  if (!first) return steps;
  const index = first.index + 1;
  throw new MultiAuthError('CONFIG_INVALID', `test "${test.name}", command ${index} (${test.commands[first.index]?.command.trim()}): ${first.message}`, {
    path: [...path, 'commands', first.index, 'command'],
    context: { ...input.where, stepKind: `browser command ${index}` },
    hint: 'Blocks nest as in Selenium IDE (docs/browser.md, "Control flow"); `multiauth validate` lists every such problem.',
  });
}

/**
 * Runs one test's commands, following its block structure: conditions choose branches, loops go
 * back to decide again, `break` leaves the innermost loop. Each loop counts the rounds of its body
 * from the moment it starts, so a loop inside another starts afresh each time; every step of the
 * walk is spent from the operation's budget, which bounds loops inside loops.
 */
async function runTest(
  run: BrowserRun,
  input: BrowserStepInput,
  test: BrowserTest,
  steps: FlowStep[],
  path: ConfigPath,
  done: () => boolean,
): Promise<void> {
  const rounds = new Map<number, number>();
  const decide = async (at: number, iteration?: number): Promise<boolean> => {
    const raw = test.commands[at] as BrowserCommand;
    return (await runCommand(run, input, test, raw, [...path, 'commands', at], at + 1, iteration)) === true;
  };
  let at = 0;
  while (at < test.commands.length && !done()) {
    await spend(run, input, test, at);
    const step = steps[at] ?? { kind: 'command' };
    switch (step.kind) {
      case 'command':
        await runCommand(run, input, test, test.commands[at] as BrowserCommand, [...path, 'commands', at], at + 1);
        at += 1;
        break;
      case 'if': {
        // The first clause whose condition holds (an else always does) gets the run; none: past the end.
        let clause = at;
        for (;;) {
          const current = steps[clause];
          if ((current?.kind === 'if' || current?.kind === 'elseIf') && !(await decide(clause))) clause = current.next;
          else break;
        }
        at = clause + 1;
        break;
      }
      case 'elseIf':
      case 'else':
        // Reached from the branch above, which ran: the rest of the chain is skipped.
        at = step.end + 1;
        break;
      case 'loop': {
        const count = rounds.get(at) ?? 0;
        if (await decide(at, count)) {
          rounds.set(at, count + 1);
          at += 1;
        } else {
          rounds.delete(at);
          at = step.exit;
        }
        break;
      }
      case 'do':
        rounds.set(at, 1);
        at += 1;
        break;
      case 'repeatIf': {
        const count = rounds.get(step.loop) ?? 1;
        if (await decide(at, count)) {
          rounds.set(step.loop, count + 1);
          at = step.loop + 1;
        } else {
          rounds.delete(step.loop);
          at += 1;
        }
        break;
      }
      case 'end':
        at = step.loop ?? at + 1;
        break;
      case 'break':
        rounds.delete(step.loop);
        at = step.exit;
        break;
    }
  }
}

/** Spends one round of the budget before the command at `at`, failing there when it is spent. */
async function spend(run: BrowserRun, input: BrowserStepInput, test: BrowserTest, at: number): Promise<void> {
  try {
    await run.budget.spend();
  } catch (error) {
    const raw = test.commands[at];
    const target = raw?.target.trim() ?? '';
    throw await stepError(
      error,
      { test: test.name, index: at + 1, command: raw?.command.trim() ?? '', target, secrets: [] },
      { page: run.page, where: input.where, redact: input.redact, screenshotDir: input.screenshotDir },
    );
  }
}

async function runCommand(
  run: BrowserRun,
  input: BrowserStepInput,
  test: BrowserTest,
  raw: BrowserCommand,
  path: ConfigPath,
  index: number,
  iteration?: number,
): Promise<boolean | void> {
  if (isDisabledCommand(raw.command)) return;
  const name = raw.command.trim();
  const spec = Object.hasOwn(BROWSER_COMMANDS, name) ? BROWSER_COMMANDS[name] : undefined;
  if (!spec) {
    throw new MultiAuthError('BROWSER_UNKNOWN_COMMAND', `test "${test.name}", command ${index}: unknown command "${name}"`, {
      path: [...path, 'command'],
      context: { ...input.where, stepKind: `browser command ${index}` },
      hint: 'Run `multiauth validate` to see the supported commands.',
    });
  }
  const at = (field: string): TemplateWhere => ({ ...input.where, path: [...path, field] });
  await awaitFreshTotp([raw.target, raw.value], run.vars.scope());
  const cmd: CommandInput = {
    test: test.name,
    index,
    command: name,
    target: expandArg(run, spec.args.target, raw.target, at('target')),
    value: expandArg(run, spec.args.value, raw.value ?? '', at('value')),
    candidates: [],
    raw,
    path,
    at,
    ...(iteration === undefined ? {} : { iteration }),
  };
  if (spec.args.target?.kind === 'locator' || spec.args.target?.kind === 'frameLocator') {
    cmd.candidates = locatorCandidates(raw).map((candidate, i) => ({
      ...candidate,
      locator: i === 0 ? cmd.target : expandText(candidate.locator, run.vars, at('targets')),
    }));
  }
  const secrets = secretsOf(run, spec.args, cmd, at('value'));
  // Read before the command's clock starts: what the page showed is no part of the command's own time.
  if (SUBMITS.test(name)) await noteMessagesBeforeSubmit(run);
  run.startClock();
  const before = raw.opensWindow ? new Set(run.context.pages()) : undefined;
  try {
    if (run.page.isClosed() && name !== 'selectWindow') {
      throw new StepFailure('window', 'the selected window has been closed');
    }
    if (run.frame.isDetached()) run.frame = run.page.mainFrame();
    const decision = await watchRefusal(run, waitsForPage(name, spec, cmd.target), spec.run(run, cmd));
    if (before) await awaitNewWindow(run, before, raw);
    return decision;
  } catch (error) {
    // A click whose own action closed its window (a button that runs `window.close()`): when the
    // close lands before Playwright's click returns (its wait for navigations after the click),
    // Playwright reports the closed page as the click's failure, about one run in thirty. The click
    // happened; the next command finds the window closed and says so, as WebDriver would. A browser
    // that went away under the click is no such case: its failure stands.
    if (SUBMITS.test(name) && run.page.isClosed() && run.context.browser()?.isConnected() !== false && closedUnderIt(error)) return;
    // A command cut short by the operation's time left fails for that reason, not its own timeout.
    const cause = run.budget.timeUp() && !isMultiAuthError(error) ? run.budget.timeFailure() : error;
    throw await stepError(
      cause,
      { test: test.name, index, command: name, target: cmd.target, secrets },
      { page: run.page, where: input.where, redact: input.redact, screenshotDir: input.screenshotDir },
    );
  }
}

/** Playwright's failure for a page closed while one of its calls ran (its TargetClosedError, named by its message only). */
function closedUnderIt(error: unknown): boolean {
  return error instanceof Error && /^(\w+\.\w+: )?Target page, context or browser has been closed/.test(error.message);
}

/** Commands that may submit a sign-in: what the page shows after them may be the server's answer. */
const SUBMITS = /^(click|clickAt|doubleClick|doubleClickAt|submit|sendKeys|mouseUp|mouseUpAt|executeScript|executeAsyncScript|runScript)$/;

/**
 * Whether a command waits for something of the page (an element, a text, a state, a request to
 * the callback): the kind of command that waits in vain for the signed-in page when the sign-in
 * was refused.
 */
function waitsForPage(name: string, spec: BrowserCommandSpec, target: string): boolean {
  const kind = spec.args.target?.kind;
  return kind === 'locator' || /^(waitFor|assert|verify)/.test(name) || (name === 'wait' && target.startsWith('request_url_contains='));
}

function expandArg(run: BrowserRun, spec: ArgSpec | undefined, text: string, where: TemplateWhere): string {
  if (!spec || spec.kind === 'script' || spec.kind === 'condition' || spec.kind === 'keys') return text.trim();
  return expandText(text, run.vars, where);
}

/**
 * What a command types or compares (text values, key sequences): masked in every failure message.
 * Targets, timeouts, locators and variable names are not secret (the redactor still masks any
 * known secret in them).
 */
function secretsOf(run: BrowserRun, args: BrowserCommandSpec['args'], cmd: CommandInput, where: TemplateWhere): string[] {
  const secrets: string[] = [];
  if (args.value?.kind === 'text') secrets.push(cmd.value);
  if (args.value?.kind === 'keys') {
    for (const piece of expandKeys(cmd.value, run.vars, where)) if (piece.kind === 'text') secrets.push(piece.text);
  }
  return secrets;
}

/** Selenium IDE's `opensWindow`: the command must open a window; its handle goes in `windowHandleName`. */
async function awaitNewWindow(run: BrowserRun, before: Set<Page>, raw: BrowserCommand): Promise<void> {
  run.startClock(raw.windowTimeout ?? run.options.timeoutMs);
  let opened: Page | undefined;
  await run.until(
    'the command did not open a window',
    async () => {
      opened = run.context.pages().find((page) => !before.has(page));
      return { ok: opened !== undefined };
    },
    'window',
  );
  if (opened && raw.windowHandleName) run.vars.set(raw.windowHandleName, run.windows.handleOf(opened));
}
