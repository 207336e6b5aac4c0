import type { BrowserContext, Page } from 'playwright-core';
import { MultiAuthError } from '../core/errors.js';
import type { Redactor } from '../core/redactor.js';
import { toSpecError } from './spec-error.js';

const M = 'method';
const P = 'property';

/** Every member of a Playwright class, and whether it is called: checked against Playwright's types. */
type Members<T> = { readonly [K in Exclude<keyof T, symbol>]: T[K] extends (...args: never[]) => unknown ? typeof M : typeof P };

const PAGE_MEMBERS: Members<Page> = {
  '$': M, '$$': M, '$$eval': M, '$eval': M, addInitScript: M, addListener: M, addLocatorHandler: M, addScriptTag: M,
  addStyleTag: M, ariaSnapshot: M, ariaSnapshotJSON: M, bringToFront: M, cancelPickLocator: M, check: M,
  clearConsoleMessages: M, clearPageErrors: M, click: M, clock: P, close: M, consoleMessages: M, content: M,
  context: M, coverage: P, dblclick: M, dispatchEvent: M, dragAndDrop: M, emulateMedia: M, evaluate: M,
  evaluateHandle: M, exposeBinding: M, exposeFunction: M, fill: M, focus: M, frame: M, frameLocator: M, frames: M,
  getAttribute: M, getByAltText: M, getByLabel: M, getByPlaceholder: M, getByRef: M, getByRole: M, getByTestId: M,
  getByText: M, getByTitle: M, goBack: M, goForward: M, goto: M, hideHighlight: M, hover: M, innerHTML: M,
  innerText: M, inputValue: M, isChecked: M, isClosed: M, isDisabled: M, isEditable: M, isEnabled: M, isHidden: M,
  isVisible: M, keyboard: P, localStorage: P, locator: M, mainFrame: M, mouse: P, off: M, on: M, once: M, opener: M,
  pageErrors: M, pause: M, pdf: M, pickLocator: M, prependListener: M, press: M, reload: M, removeAllListeners: M,
  removeListener: M, removeLocatorHandler: M, request: P, requestGC: M, requests: M, route: M, routeFromHAR: M,
  routeWebSocket: M, screencast: P, screenshot: M, selectOption: M, sessionStorage: P, setChecked: M, setContent: M,
  setDefaultNavigationTimeout: M, setDefaultTimeout: M, setExtraHTTPHeaders: M, setInputFiles: M, setViewportSize: M,
  tap: M, textContent: M, title: M, touchscreen: P, type: M, uncheck: M, unroute: M, unrouteAll: M, url: M, video: M,
  viewportSize: M, waitForEvent: M, waitForFunction: M, waitForLoadState: M, waitForNavigation: M, waitForRequest: M,
  waitForResponse: M, waitForSelector: M, waitForTimeout: M, waitForURL: M, webmcp: P, workers: M,
};

const CONTEXT_MEMBERS: Members<BrowserContext> = {
  addCookies: M, addInitScript: M, addListener: M, backgroundPages: M, browser: M, clearCookies: M,
  clearPermissions: M, clock: P, close: M, cookies: M, credentials: P, debugger: P, exposeBinding: M,
  exposeFunction: M, grantPermissions: M, isClosed: M, newCDPSession: M, newPage: M, off: M, on: M, once: M,
  pages: M, prependListener: M, removeAllListeners: M, removeListener: M, request: P, route: M, routeFromHAR: M,
  routeWebSocket: M, serviceWorkers: M, setDefaultNavigationTimeout: M, setDefaultTimeout: M, setExtraHTTPHeaders: M,
  setGeolocation: M, setHTTPCredentials: M, setOffline: M, setStorageState: M, storageState: M, tracing: P,
  unroute: M, unrouteAll: M, waitForEvent: M,
};

/** Which part of a `signInAs` user a promise is. */
export type PromisedPart = 'page' | 'context';

/**
 * `promise` (a `signInAs` user's `page` or `context`) as a spec gets it: awaiting it, `then`,
 * `catch` and `finally` work as on the promise; reading a member of a Page or a BrowserContext
 * on it (`bob.page.goto`, written for versions that opened the page in `signInAs` itself) throws
 * `SPEC_USAGE`, which says what changed and what to write, where `TypeError: bob.page.goto is not a
 * function` would say neither. The error's stack is the spec's frames, so the report points at the line.
 *
 * @example
 * const page = explainedPromise(opened, 'bob', 'page', redactor);
 * await page;  // the Page
 * page.goto;   // throws SPEC_USAGE: (await bob.page).goto(...)
 */
export function explainedPromise<T extends Page | BrowserContext>(promise: Promise<T>, user: string, part: PromisedPart, redactor: Redactor): Promise<T> {
  const members: Readonly<Record<string, string>> = part === 'page' ? PAGE_MEMBERS : CONTEXT_MEMBERS;
  function get(target: Promise<T>, property: string | symbol): unknown {
    if (typeof property === 'string' && !(property in target) && Object.hasOwn(members, property)) {
      throw withSpecFrames(toSpecError(promisedPartError(user, part, property, members[property] === M), redactor), get);
    }
    const value: unknown = Reflect.get(target, property, target);
    // A promise's own methods need the promise itself as `this`, not the proxy.
    return typeof value === 'function' ? value.bind(target) : value;
  }
  return new Proxy(promise, { get });
}

/**
 * The error of a Page or BrowserContext member read on a `signInAs` user's promise.
 *
 * @example
 * promisedPartError('bob', 'page', 'goto', true).hint; // 'Await the page first: `(await bob.page).goto(...)`, ...'
 */
export function promisedPartError(user: string, part: PromisedPart, member: string, called: boolean): MultiAuthError {
  const name = /^[A-Za-z_$][\w$]{0,40}$/.test(user) ? user : 'user';
  const use = `(await ${name}.${part}).${member}${called ? '(...)' : ''}`;
  const what = part === 'page' ? 'page' : 'browser context';
  return new MultiAuthError('SPEC_USAGE', `signInAs('${user}').${part} is a promise of the user's ${what}: \`${member}\` was read on the promise`, {
    details: [
      `signInAs opens a user's browser context and page the first time \`context\` or \`page\` is read, so both are promises; earlier versions opened them in signInAs itself, where \`${name}.${part}.${member}\` worked`,
    ],
    hint: `Await the ${what} first: \`${use}\`, or \`const ${part} = await ${name}.${part};\` once and then \`${part}.${member}${called ? '(...)' : ''}\`.`,
  });
}

/** `error` with the spec's frames below its message (those above `trap`, the proxy's getter). */
function withSpecFrames(error: unknown, trap: (...args: never[]) => unknown): unknown {
  if (!(error instanceof Error)) return error;
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder, trap);
  const frames = (holder.stack ?? '').split('\n').slice(1).join('\n');
  if (frames) error.stack = `${error.stack ?? error.message}\n${frames}`;
  return error;
}
