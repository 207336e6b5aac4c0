/** The browser runner: Selenium IDE commands on a Playwright BrowserContext. */
export { BROWSER_COMMANDS, UNSUPPORTED_COMMANDS, isDisabledCommand, type BrowserCommandSpec } from './commands.js';
export { runBrowserStep, DEFAULT_WAIT_SECONDS, type BrowserStepInput, type BrowserStepResult } from './run.js';
export { browserIssues } from './validate.js';
export { freshContextOptions } from './fresh-context.js';
export { prepareContext, browserStartUrl, type BrowserContextCredentials } from './prepare.js';
export { seedPasskey, heldPasskeys, rpIdFits, authenticatorOf, PASSKEY_PLAYWRIGHT, type PasskeyOwner } from './passkey.js';
// launch.ts is not re-exported: it loads playwright-core, which only browser sign-ins from the CLI need.
