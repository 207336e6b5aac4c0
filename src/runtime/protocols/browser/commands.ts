import type { BrowserCommandSpec } from './command-spec.js';
import { ASSERTION_COMMANDS } from './commands/assertions.js';
import { FLOW_COMMANDS } from './commands/flow.js';
import { INPUT_COMMANDS } from './commands/input.js';
import { MOUSE_COMMANDS } from './commands/mouse.js';
import { NAVIGATION_COMMANDS } from './commands/navigation.js';
import { STORE_COMMANDS } from './commands/store.js';
import { WAIT_COMMANDS } from './commands/waits.js';

export type { BrowserCommandSpec } from './command-spec.js';

/**
 * THE table of supported Selenium IDE commands: name -> argument kinds and handler. `multiauth
 * validate` checks configs against it and the runner executes it; docs/browser.md lists it.
 * Adding a command is adding a row to one of the groups.
 *
 * @example
 * BROWSER_COMMANDS.click.args.target; // { kind: 'locator', required: true }
 */
export const BROWSER_COMMANDS: Readonly<Record<string, BrowserCommandSpec>> = Object.freeze({
  ...NAVIGATION_COMMANDS,
  ...MOUSE_COMMANDS,
  ...INPUT_COMMANDS,
  ...WAIT_COMMANDS,
  ...STORE_COMMANDS,
  ...ASSERTION_COMMANDS,
  ...FLOW_COMMANDS,
});

/**
 * Selenium IDE commands this runner does not run, and why: a config using one is refused by
 * `multiauth validate` with this reason rather than a bare "unknown command".
 */
export const UNSUPPORTED_COMMANDS: Readonly<Record<string, string>> = Object.freeze({
  run: 'running another test is not supported; put its commands in this test',
  ...Object.fromEntries(
    ['gotoIf', 'gotoLabel', 'label'].map(
      (name) => [name, 'jumps to labels are not supported; use if, while, times, forEach or do … repeatIf'],
    ),
  ),
  ...Object.fromEntries(
    ['acceptAlert', 'acceptConfirmation', 'dismissConfirmation', 'answerPrompt', 'dismissPrompt', 'assertAlert',
      'assertConfirmation', 'assertPrompt', 'verifyAlert', 'verifyConfirmation', 'verifyPrompt', 'webdriverChooseOkOnVisibleConfirmation',
      'webdriverChooseCancelOnVisibleConfirmation', 'webdriverAnswerOnVisiblePrompt', 'webdriverChooseCancelOnVisiblePrompt',
      'chooseOkOnNextConfirmation', 'chooseCancelOnNextConfirmation', 'answerOnNextPrompt'].map(
      (name) => [name, 'JavaScript dialogs are dismissed automatically; remove the command'],
    ),
  ),
  debugger: 'there is no debugger in a sign-in run; remove the command',
});

/**
 * Whether a command is switched off: Selenium IDE disables a command by prefixing its name with
 * `//`; an empty command does nothing either.
 *
 * @example
 * isDisabledCommand('//click'); // true
 */
export function isDisabledCommand(name: string): boolean {
  const trimmed = name.trim();
  return trimmed === '' || trimmed.startsWith('//');
}
