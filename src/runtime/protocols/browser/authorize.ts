import type { Locator, Page } from 'playwright-core';
import { setTimeout as sleep } from 'node:timers/promises';
import { MultiAuthError } from '../../../core/errors.js';
import { redactedUrl } from '../../../core/urls.js';
import type { AuthorizeWhere } from './redirect-catch.js';

/**
 * The authorization code of a redirect (RFC 6749 4.1.2), after its `state` is checked; the
 * provider's refusal (4.1.2.1: `error`, `error_description`) as the error the user sees.
 *
 * @throws MultiAuthError `AUTH_PROTOCOL` for a refusal, a `state` that does not match, or no code.
 * @example
 * authorizationCode(new URL('http://x/cb?code=abc&state=s1'), 's1', where); // 'abc'
 */
export function authorizationCode(url: URL, expectedState: string | undefined, where: AuthorizeWhere): string {
  const context = { user: where.user, procedure: where.procedure, step: where.step, stepKind: 'browser (authorization)', url: redactedUrl(url.href) };
  const error = url.searchParams.get('error');
  if (error !== null) {
    const description = url.searchParams.get('error_description');
    return refuse(`the provider refused the authorization: ${error}${description ? ` (${description.slice(0, 300)})` : ''}`, context,
      'Read the provider\'s reason above: a scope the client may not ask for, a redirect_uri that is not registered, a user who may not use the client.');
  }
  if (expectedState !== undefined && url.searchParams.get('state') !== expectedState) {
    return refuse('the redirect\'s state is not the one this sign-in sent (a stale or forged redirect)', context,
      'Sign in again; if it repeats, check that nothing else drives this browser context.');
  }
  const code = url.searchParams.get('code');
  if (!code) return refuse('the redirect has no code', context, 'Check that the client is registered for response_type=code.');
  return code;
}

function refuse(message: string, context: Record<string, unknown>, hint: string): never {
  throw new MultiAuthError('AUTH_PROTOCOL', message, { context, hint });
}

/** What the default login types: the user's name and password, and the current one-time code. */
export interface LoginValues {
  username: string | undefined;
  password: string | undefined;
  /** The current TOTP code (waiting out a code about to expire), when the user has a secret. */
  oneTimeCode?: () => Promise<string>;
}

const OTP_FIELD = [
  'input[autocomplete="one-time-code"]',
  'input[name*="otp" i]',
  'input[id*="otp" i]',
  'input[name*="totp" i]',
  'input[name="code"]',
  'input[name*="token" i][inputmode="numeric"]',
].join(', ');
const PASSWORD_FIELD = 'input[type="password"]';
const USERNAME_FIELD = [
  'input[autocomplete="username"]',
  'input[type="email"]',
  'input[name*="user" i]:not([type="hidden"])',
  'input[name*="login" i]:not([type="hidden"])',
  'input[name*="email" i]:not([type="hidden"])',
  'input[id*="user" i]:not([type="hidden"])',
  'input[name="identifier"]',
].join(', ');
const SUBMIT = 'button[type="submit"], input[type="submit"], button:not([type])';

/** Rounds of the default login: username, password, code, consent, and a few pages between. */
const MAX_ROUNDS = 12;

type Stage = 'username' | 'password' | 'code' | 'consent';

/**
 * Signs in on the provider's pages without recorded steps, until `done()` (the redirect arrived)
 * or `deadline` (Unix ms). Each round looks at the page: a one-time-code field gets the code; a
 * password field gets the password (and the username field beside it, if empty); a username field
 * alone (identifier-first) gets the username; a page with a single submit button and no field to
 * fill is a consent page and is confirmed. Each stage is done at most once: a login form shown
 * again means the provider refused it, and typing the password again could lock the account.
 *
 * @throws MultiAuthError `BROWSER_STEP_FAILED` naming the stage, with the page's own error text.
 * @example
 * await defaultLogin(page, { username: 'alice', password }, () => redirect.url !== undefined, Date.now() + 10_000, where);
 */
export async function defaultLogin(page: Page, values: LoginValues, done: () => boolean, deadline: number, where: AuthorizeWhere): Promise<void> {
  const doneStages = new Set<Stage>();
  for (let round = 0; round < MAX_ROUNDS && !done() && Date.now() < deadline; round++) {
    await page.waitForLoadState('domcontentloaded', { timeout: Math.max(1, deadline - Date.now()) }).catch(() => undefined);
    if (done()) return;
    const stage = await currentStage(page);
    if (!stage) {
      await sleep(200);
      continue;
    }
    if (doneStages.has(stage) && stage !== 'consent') {
      throw await loginFailure(page, `the provider showed its ${stage === 'code' ? 'one-time code' : stage} page again after it was filled in`, where,
        stage === 'code' ? 'Check the user\'s totp_secret and this machine\'s clock.' : 'Check the user\'s username and password (the page\'s message is above).');
    }
    doneStages.add(stage);
    // Every action ends by the deadline too: a field that never becomes editable does not hold the sign-in.
    await act(page, stage, values, where, Math.max(1, deadline - Date.now()));
    // The page reacts: a navigation, or a script that shows the next field.
    await Promise.race([page.waitForNavigation({ timeout: 3000 }).catch(() => undefined), sleep(1500)]);
  }
  if (!done()) {
    throw await loginFailure(page, 'the provider did not send the browser to the redirect URI in time', where,
      'Record the login steps (`project`) if its pages are unusual, or raise wait_for_seconds.');
  }
}

async function currentStage(page: Page): Promise<Stage | undefined> {
  if (await firstVisible(page.locator(OTP_FIELD))) return 'code';
  if (await firstVisible(page.locator(PASSWORD_FIELD))) return 'password';
  if (await firstVisible(page.locator(USERNAME_FIELD))) return 'username';
  const buttons = await visibleCount(page.locator(SUBMIT));
  return buttons === 1 ? 'consent' : undefined;
}

async function act(page: Page, stage: Stage, values: LoginValues, where: AuthorizeWhere, timeout: number): Promise<void> {
  const field = async (selector: string): Promise<Locator> => (await firstVisible(page.locator(selector)))!;
  switch (stage) {
    case 'code': {
      if (!values.oneTimeCode) {
        throw await loginFailure(page, 'the provider asks for a one-time code and the user has no totp_secret', where, 'Give the user `totp_secret` (the base32 secret of its authenticator).');
      }
      return submit(await field(OTP_FIELD), await values.oneTimeCode(), timeout);
    }
    case 'password': {
      const name = await firstVisible(page.locator(USERNAME_FIELD));
      if (name && values.username !== undefined && (await name.inputValue({ timeout }).catch(() => '')) === '') await name.fill(values.username, { timeout });
      return submit(await field(PASSWORD_FIELD), values.password ?? '', timeout);
    }
    case 'username':
      return submit(await field(USERNAME_FIELD), values.username ?? '', timeout);
    case 'consent':
      return (await firstVisible(page.locator(SUBMIT)))!.click({ timeout });
  }
}

/** Types `value` and sends the field's form: its submit button, else Enter. */
async function submit(field: Locator, value: string, timeout: number): Promise<void> {
  await field.fill(value, { timeout });
  const button = field.locator('xpath=ancestor::form[1]').locator(SUBMIT).first();
  if (await button.isVisible().catch(() => false)) await button.click({ timeout });
  else await field.press('Enter', { timeout });
}

async function firstVisible(locator: Locator): Promise<Locator | undefined> {
  const count = Math.min(await locator.count(), 20);
  for (let index = 0; index < count; index++) {
    const item = locator.nth(index);
    if (await item.isVisible().catch(() => false)) return item;
  }
  return undefined;
}

async function visibleCount(locator: Locator): Promise<number> {
  const count = Math.min(await locator.count(), 20);
  let visible = 0;
  for (let index = 0; index < count; index++) if (await locator.nth(index).isVisible().catch(() => false)) visible++;
  return visible;
}

async function loginFailure(page: Page, message: string, where: AuthorizeWhere, hint: string): Promise<MultiAuthError> {
  // The page's own message says why (wrong password, locked account): shown cut, never a typed value.
  const alert = await page.locator('[role="alert"], .error, .alert, #error').first().textContent({ timeout: 500 }).catch(() => null);
  const said = alert?.trim().replace(/\s+/g, ' ').slice(0, 200);
  return new MultiAuthError('BROWSER_STEP_FAILED', `default login: ${message}${said ? `; the page says: "${said}"` : ''}`, {
    context: { user: where.user, procedure: where.procedure, step: where.step, stepKind: 'browser (default login)', url: redactedUrl(page.url()) },
    hint,
  });
}
