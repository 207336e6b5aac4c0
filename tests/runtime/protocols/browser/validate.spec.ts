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
  const issues = browserIssues(plan([c('gotoIf', '${x} > 1', 'done'), c('run', 'other test'), c('acceptAlert')]));
  expect(issues.map((i) => [i.path, i.message])).toEqual([
    [at(0, 'command'), 'the command "gotoIf" is not supported: jumps to labels are not supported; use if, while, times, forEach or do … repeatIf'],
    [at(1, 'command'), 'the command "run" is not supported: running another test is not supported; put its commands in this test'],
    [at(2, 'command'), 'the command "acceptAlert" is not supported: JavaScript dialogs are dismissed automatically; remove the command'],
  ]);
});

test('control flow that nests has no issues; its targets are checked like any other', () => {
  expect(browserIssues(plan([
    c('if', 'document.querySelector("#consent") !== null'),
    c('click', 'id=allow'),
    c('elseIf', '${role} === "admin"'),
    c('else'),
    c('end'),
    c('times', '{{rounds}}'),
    c('break'),
    c('end'),
    c('forEach', 'names', 'name'),
    c('end'),
    c('do'),
    c('repeatIf', 'false'),
  ]))).toEqual([]);
  const issues = browserIssues(plan([c('if', ''), c('end'), c('times', 'thrice'), c('end'), c('forEach', 'names'), c('end'), c('while', ' '), c('end')]));
  expect(issues.map((i) => [i.path, i.message])).toEqual([
    [at(0, 'target'), 'if needs a target'],
    [at(2, 'target'), 'expected a whole number of times, e.g. 3'],
    [at(4, 'value'), 'forEach needs a value'],
    [at(6, 'target'), 'while needs a target'],
  ]);
});

test('blocks that do not nest are errors at the command to fix, in each test of the project', () => {
  const browser = op([
    { id: 't1', name: 'first', commands: [c('if', 'true'), c('click', 'id=x'), c('else'), c('else'), c('end'), c('end')] },
    { id: 't2', name: 'second', commands: [c('break'), c('do'), c('click', 'id=x'), c('while', 'true'), c('end')] },
  ]);
  const issues = browserIssues({ users: [], procedures: { login: { name: 'login', origin: ['procedures', 0], operations: [browser], injections: [] } }, scope: [], mtls: [] });
  const hint = 'Blocks nest as in Selenium IDE: if … elseIf … else … end; while, times or forEach … end; do … repeatIf; ' +
    'break inside a loop (docs/browser.md, "Control flow").';
  expect(issues).toEqual([
    { severity: 'error', path: [...ORIGIN, 'project', 'tests', 0, 'commands', 3, 'command'], message: 'a second else in the if block of command 1 (the first is command 3)', hint },
    { severity: 'error', path: [...ORIGIN, 'project', 'tests', 0, 'commands', 5, 'command'], message: 'end closes no block: no if, while, times or forEach is open', hint },
    { severity: 'error', path: [...ORIGIN, 'project', 'tests', 1, 'commands', 0, 'command'], message: 'break outside a loop: break leaves the innermost while, times, forEach or do', hint },
    { severity: 'error', path: [...ORIGIN, 'project', 'tests', 1, 'commands', 1, 'command'], message: 'the do block is never closed: add a repeatIf', hint },
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
