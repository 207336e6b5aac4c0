import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { MultiAuthError, isMultiAuthError, type AuthContext } from '../../../core/errors.js';
import { MASK } from '../../../core/redactor.js';
import { redactUrlsIn } from '../../../core/urls.js';
import { withoutEscapes } from '../../../core/terminal-text.js';
import { BROWSER_BUDGET, MAX_LOOP_ITERATIONS } from './control-flow.js';
import { oauthErrorIn, readPageMessages } from './page-messages.js';

/** Why a command failed, so the error can say what to do. */
export type FailureKind = 'not-found' | 'assertion' | 'timeout' | 'invalid' | 'window' | 'script' | 'condition' | 'loop' | 'budget' | 'network' | 'refused' | 'oauth';

/**
 * A command that could not do its job. Thrown by command handlers; {@link stepError} turns it
 * into the user-facing {@link MultiAuthError}. Its message must not hold typed values.
 *
 * @example
 * throw new StepFailure('assertion', 'the title is "Sign in", expected "Dashboard"');
 */
export class StepFailure extends Error {
  override readonly name = 'StepFailure';
  constructor(
    readonly kind: FailureKind,
    message: string,
  ) {
    super(message);
  }
}

const HINTS: Readonly<Record<FailureKind, string>> = {
  'not-found':
    'Check the locator against the page (the screenshot shows what the browser saw), add alternatives in ' +
    '`targets`, or raise options.wait_for_seconds if the page is slow.',
  assertion:
    'The page did not show what the command expects: check the user\'s credentials and the expected value ' +
    '(verify* commands fail the sign-in too).',
  timeout:
    'The page did not get there in time: raise options.wait_for_seconds (or the command\'s timeout), or check ' +
    'that the previous commands did what you expect (see the screenshot).',
  invalid: 'Fix the command\'s target or value (`multiauth validate` checks them before anything runs).',
  window: 'Select the window the command should act on with selectWindow (handle=${name}, win_ser_local, win_ser_1).',
  script: 'Fix the script (it runs as the body of a function in the selected frame; use `return` to store a value).',
  condition:
    'Fix the condition: a JavaScript expression run in the selected frame, where ${name} stands for the ' +
    'variable\'s value (write ${name}, not "${name}"; quote text: ${status} === "ok").',
  loop:
    `The loop did not end: check that the commands inside it change what its condition reads (the screenshot ` +
    `shows the page), or leave it with break. A loop may run ${MAX_LOOP_ITERATIONS} times each time it starts.`,
  budget:
    `The browser operation did more than a sign-in needs: a loop inside a loop multiplies their rounds (lower the ` +
    `count of times or the value of while and repeatIf, or leave early with break), and waits add up (shorten them). ` +
    `An operation may run ${BROWSER_BUDGET.rounds} commands and loop rounds and ${BROWSER_BUDGET.seconds}s in all ` +
    `(docs/browser.md, "Limits").`,
  network: 'Check that the site is reachable from this machine (the URL, options.proxy, VPN or DNS).',
  refused:
    'The server answered the sign-in with its form again: the credentials were probably refused (the page\'s ' +
    'message is quoted above). Check the user\'s username and password, or its one-time code.',
  oauth:
    'The identity provider refused the authorization request (its reason is quoted above): a client that must send ' +
    'PKCE (code_challenge={{pkce_challenge}}, code_challenge_method=S256), a redirect_uri or scope it does not ' +
    'accept, or a user who may not use the client.',
};

/** What {@link stepError} needs to name the failing command. */
export interface FailedCommand {
  test: string;
  /** 1-based index within the test. */
  index: number;
  command: string;
  /** Expanded target (not secret; long scripts are cut). */
  target: string;
  /** The expanded value's text (secret): never shown, masked wherever it would appear. */
  secrets: string[];
}

/** Where the step ran, for the error's context. */
export interface StepErrorWhere {
  user: string;
  procedure?: string;
  step?: number;
}

/**
 * Builds the `BROWSER_STEP_FAILED` error of a failing command: test name, command index
 * (1-based), command, target, the cause (redacted, the typed value masked) and the path of a
 * screenshot of the page at the moment of failure.
 *
 * @example
 * throw await stepError(error, { test: 'sign in', index: 3, command: 'click', target: 'id=go', secrets: [] },
 *   { page, where: { user: 'alice' }, redact, screenshotDir: 'test-results/multiauth' });
 */
export async function stepError(
  error: unknown,
  command: FailedCommand,
  options: { page: Page | undefined; where: StepErrorWhere; redact: (text: string) => string; screenshotDir?: string },
): Promise<MultiAuthError> {
  if (isMultiAuthError(error) && error.code !== 'BROWSER_STEP_FAILED') return error;
  const kind = failureKind(error);
  // URLs lose their query values too: a failure on an identity provider's callback shows the code.
  const clean = (text: string): string => redactUrlsIn(options.redact(maskSecrets(text, command.secrets)));
  const cause = clean(causeText(error) + (kind === 'refused' || kind === 'oauth' ? '' : await whatThePageSays(options.page)));
  const screenshot = await saveScreenshot(options.page, command, options.where, options.screenshotDir);
  const shown = command.target.length > 80 ? `${command.target.slice(0, 80)}…` : command.target;
  const target = shown ? ` "${clean(shown)}"` : '';
  const context: AuthContext = {
    user: options.where.user,
    procedure: options.where.procedure,
    step: options.where.step,
    stepKind: `browser command ${command.index} (${command.command})`,
  };
  const url = options.page && !options.page.isClosed() ? options.page.url() : undefined;
  if (url && url !== 'about:blank') context.url = clean(url);
  return new MultiAuthError(
    'BROWSER_STEP_FAILED',
    `test "${command.test}", command ${command.index} (${command.command}${target}): ${cause}; ${screenshot}`,
    { context, hint: HINTS[kind], cause: error },
  );
}

/**
 * What the page the command failed on says of a refusal, as words to add to the cause: the OAuth
 * error in its URL, else its visible error messages (a flash message after a wrong password).
 */
async function whatThePageSays(page: Page | undefined): Promise<string> {
  if (!page || page.isClosed()) return '';
  const oauth = oauthErrorIn(page.url());
  if (oauth) return `; ${oauth}`;
  const shown = await readPageMessages(page);
  return shown?.messages.length ? `; the page says: ${shown.messages.map((m) => `"${m}"`).join('; ')}` : '';
}

function failureKind(error: unknown): FailureKind {
  if (error instanceof StepFailure) return error.kind;
  if (error instanceof Error && error.name === 'TimeoutError') return 'timeout';
  if (error instanceof Error && /net::ERR_/.test(error.message)) return 'network';
  return 'invalid';
}

/** The first line of the cause, plus Playwright's call log (which says what it waited for). */
function causeText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error instanceof StepFailure) return error.message;
  // Playwright colours its call log when it thinks a terminal reads it.
  const [first = '', ...rest] = withoutEscapes(error.message).split('\n');
  const headline = first.replace(/^\w+\.\w+: /, '');
  const log = rest
    .map((line) => line.trim())
    .filter((line) => line.startsWith('- '))
    .slice(0, 4)
    .map((line) => line.slice(2));
  const text = log.length ? `${headline} (${log.join('; ')})` : headline;
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
}

function maskSecrets(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length >= 3) out = out.split(secret).join(MASK);
  }
  return out;
}

async function saveScreenshot(
  page: Page | undefined,
  command: FailedCommand,
  where: StepErrorWhere,
  dir: string | undefined,
): Promise<string> {
  if (!page || page.isClosed()) return 'no screenshot (the window was closed)';
  const name = [where.user, where.procedure, `step${(where.step ?? 0) + 1}`, `command${command.index}`, Date.now()]
    .filter((part) => part !== undefined)
    .join('-')
    .replace(/[^\w.-]+/g, '_');
  try {
    const path = join(screenshotDirectory(dir), `${name}.png`);
    await page.screenshot({ path, timeout: 5000 });
    return `screenshot: ${path}`;
  } catch (error) {
    return `no screenshot (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
  }
}

function screenshotDirectory(dir: string | undefined): string {
  const wanted = resolve(dir ?? join('test-results', 'multiauth'));
  try {
    mkdirSync(wanted, { recursive: true });
    return wanted;
  } catch {
    const fallback = join(tmpdir(), 'multiauth');
    mkdirSync(fallback, { recursive: true });
    return fallback;
  }
}
