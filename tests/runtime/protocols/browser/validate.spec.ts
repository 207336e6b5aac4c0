import { expect, test } from '@playwright/test';
import type { Plan } from '../../../../src/compile/plan.js';
import type { BrowserCommand } from '../../../../src/config/schema/index.js';
import { browserIssues } from '../../../../src/runtime/protocols/browser/validate.js';
import { c, ORIGIN, op } from './support.js';

function plan(commands: BrowserCommand[]): Plan {
  const browser = op(commands);
  return {
    users: [],
    procedures: {
      login: { name: 'login', origin: ['procedures', 0], operations: [browser], injections: [] },
      // The same operation reached from a second procedure is reported once.
      again: { name: 'again', origin: ['procedures', 1], operations: [browser], injections: [] },
    },
    scope: [],
    mtls: [],
  };
}

const at = (index: number, ...field: Array<string | number>): Array<string | number> =>
  [...ORIGIN, 'project', 'tests', 0, 'commands', index, ...field];

test('a valid project has no issues; disabled (//) and empty commands are skipped', () => {
  expect(
    browserIssues(plan([
      c('open', 'https://app.test/login'),
      c('type', 'id=user', '{{username}}'),
      c('sendKeys', 'id=password', '${password}${KEY_ENTER}'),
      c('click', 'css=button', '', { targets: [['css=button', 'css:finder'], ['xpath=//button', 'xpath:attributes']] }),
      c('//clik', 'id=x'),
      c('', ''),
      c('selectFrame', 'index=0'),
      c('selectFrame', 'loginFrame'),
      c('selectWindow', 'handle=${win1}'),
      c('setWindowSize', '1280x800'),
      c('storeAttribute', 'id=logo@src', 'src'),
      c('wait', 'request_url_contains=/callback', '10'),
      c('select', 'id=role', 'Administrator'),
      c('pause', '500'),
      c('executeScript', 'return 1', 'one'),
    ])),
  ).toEqual([]);
});

test('an unknown command is an error at the command, with a suggestion', () => {
  expect(browserIssues(plan([c('open', 'https://x.test'), c('clik', 'id=go')]))).toEqual([
    {
      severity: 'error',
      path: at(1, 'command'),
      message: 'unknown command "clik" (did you mean "click"?)',
      hint: 'See docs/browser.md for the Selenium IDE commands multiauth runs.',
    },
  ]);
});

test('known Selenium IDE commands that are not supported say why', () => {
  const issues = browserIssues(plan([c('if', '${x} > 1'), c('acceptAlert')]));
  expect(issues.map((i) => [i.path, i.message])).toEqual([
    [at(0, 'command'), 'the command "if" is not supported: control flow is not supported in sign-in scripts; record a straight sequence of commands'],
    [at(1, 'command'), 'the command "acceptAlert" is not supported: JavaScript dialogs are dismissed automatically; remove the command'],
  ]);
});

test('a missing required target or value is reported at that field', () => {
  const issues = browserIssues(plan([c('click', ''), c('type', 'id=user'), c('storeText', 'id=x', '  ')]));
  expect(issues.map((i) => [i.path, i.message])).toEqual([
    [at(0, 'target'), 'click needs a target'],
    [at(1, 'value'), 'type needs a value'],
    [at(2, 'value'), 'storeText needs a value'],
  ]);
});

test('bad locator prefixes, in target and in targets', () => {
  const issues = browserIssues(plan([
    c('click', 'identifier=go', '', { targets: [['dom=document.forms[0]', 'dom'], ['css=#go', 'css:finder']] }),
    c('storeAttribute', 'ids=logo@src', 'src'),
  ]));
  expect(issues.map((i) => [i.path, i.message.split(';')[0]])).toEqual([
    [at(0, 'target'), 'unknown locator prefix "identifier="'],
    [at(0, 'targets', 0), 'unknown locator prefix "dom="'],
    [at(1, 'target'), 'unknown locator prefix "ids=" (did you mean "id"?)'],
  ]);
});

test('bad sendKeys key names, sizes, timeouts, coordinates, JSON, windows, frames, options and waits', () => {
  const issues = browserIssues(plan([
    c('sendKeys', 'id=p', 'x${KEY_ENTRE}'),
    c('setWindowSize', '1280 by 800'),
    c('waitForElementPresent', 'id=x', 'soon'),
    c('clickAt', 'id=x', 'left'),
    c('storeJson', '{oops}', 'j'),
    c('selectWindow', 'popup'),
    c('selectFrame', 'index=first'),
    c('select', 'id=role', 'text=Admin'),
    c('wait', 'request_url_contains=(unclosed', '5'),
    c('storeAttribute', 'id=logo', 'src'),
  ]));
  expect(issues.map((i) => [i.path.at(-2), i.path.at(-1), i.message])).toEqual([
    [0, 'value', 'unknown key ${KEY_ENTRE} (did you mean "KEY_ENTER"?)'],
    [1, 'target', 'expected WIDTHxHEIGHT, e.g. 1280x800'],
    [2, 'value', 'expected a number of milliseconds'],
    [3, 'value', 'expected x,y, e.g. 10,5'],
    [4, 'target', 'expected JSON'],
    [5, 'target', 'expected handle=${name}, win_ser_local, win_ser_N, name=WINDOW_NAME or title=TITLE'],
    [6, 'target', 'expected index=N, relative=parent or relative=top'],
    [7, 'value', 'unknown option locator "text="; use label=, value=, index= or id='],
    [8, 'target', expect.stringContaining('invalid regular expression')],
    [9, 'target', 'expected LOCATOR@ATTRIBUTE, e.g. id=logo@src'],
  ]);
});

test('templates hide what only the run can check', () => {
  expect(browserIssues(plan([
    c('setWindowSize', '{{size}}'),
    c('storeJson', '${json}', 'j'),
    c('selectWindow', '${handle}'),
    c('waitForElementPresent', 'id=x', '{{timeout}}'),
  ]))).toEqual([]);
});
