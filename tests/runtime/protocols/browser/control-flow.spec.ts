import { expect, test } from '@playwright/test';
import { buildFlow, isFlowCommand, MAX_LOOP_ITERATIONS } from '../../../../src/runtime/protocols/browser/control-flow.js';

test('a straight list of commands has one ordinary step each and no issues', () => {
  expect(buildFlow(['open', 'type', '//if', '', 'click'])).toEqual({
    steps: [{ kind: 'command' }, { kind: 'command' }, { kind: 'command' }, { kind: 'command' }, { kind: 'command' }],
    issues: [],
  });
});

test('if … elseIf … elseIf … else … end: each failed condition goes to the next clause, each branch to the end', () => {
  const { steps, issues } = buildFlow(['if', 'click', 'elseIf', 'click', 'elseIf', 'else', 'click', 'end', 'echo']);
  expect(issues).toEqual([]);
  expect(steps).toEqual([
    { kind: 'if', next: 2 },
    { kind: 'command' },
    { kind: 'elseIf', next: 4, end: 7 },
    { kind: 'command' },
    { kind: 'elseIf', next: 5, end: 7 },
    { kind: 'else', end: 7 },
    { kind: 'command' },
    { kind: 'end' },
    { kind: 'command' },
  ]);
});

test('an if without else: a false condition goes to its end', () => {
  expect(buildFlow(['if', 'click', 'end']).steps).toEqual([{ kind: 'if', next: 2 }, { kind: 'command' }, { kind: 'end' }]);
  expect(buildFlow(['if', 'elseIf', 'end']).steps).toEqual([
    { kind: 'if', next: 1 },
    { kind: 'elseIf', next: 2, end: 2 },
    { kind: 'end' },
  ]);
});

test('while, times and forEach exit after their end, which goes back to them', () => {
  for (const loop of ['while', 'times', 'forEach'] as const) {
    expect(buildFlow(['open', loop, 'click', 'end', 'echo']).steps).toEqual([
      { kind: 'command' },
      { kind: 'loop', command: loop, exit: 4 },
      { kind: 'command' },
      { kind: 'end', loop: 1 },
      { kind: 'command' },
    ]);
  }
});

test('do … repeatIf: repeatIf goes back to the command after do', () => {
  expect(buildFlow(['do', 'click', 'repeatIf', 'echo'])).toEqual({
    steps: [{ kind: 'do' }, { kind: 'command' }, { kind: 'repeatIf', loop: 0 }, { kind: 'command' }],
    issues: [],
  });
});

test('break leaves the innermost loop, even from inside an if, and exits after its end or repeatIf', () => {
  const { steps, issues } = buildFlow([
    'while', // 0
    'times', // 1
    'if', // 2
    'break', // 3: leaves the times
    'end', // 4
    'end', // 5
    'break', // 6: leaves the while
    'end', // 7
    'do', // 8
    'break', // 9: leaves the do
    'repeatIf', // 10
  ]);
  expect(issues).toEqual([]);
  expect(steps[3]).toEqual({ kind: 'break', loop: 1, exit: 6 });
  expect(steps[6]).toEqual({ kind: 'break', loop: 0, exit: 8 });
  expect(steps[9]).toEqual({ kind: 'break', loop: 8, exit: 11 });
});

test('nested blocks: each end closes the innermost open block', () => {
  const { steps, issues } = buildFlow([
    'forEach', // 0
    'if', // 1
    'while', // 2
    'click', // 3
    'end', // 4: while
    'else', // 5
    'do', // 6
    'click', // 7
    'repeatIf', // 8
    'end', // 9: if
    'end', // 10: forEach
  ]);
  expect(issues).toEqual([]);
  expect(steps).toEqual([
    { kind: 'loop', command: 'forEach', exit: 11 },
    { kind: 'if', next: 5 },
    { kind: 'loop', command: 'while', exit: 5 },
    { kind: 'command' },
    { kind: 'end', loop: 2 },
    { kind: 'else', end: 9 },
    { kind: 'do' },
    { kind: 'command' },
    { kind: 'repeatIf', loop: 6 },
    { kind: 'end' },
    { kind: 'end', loop: 0 },
  ]);
});

test('names are read as the runner reads them: trimmed', () => {
  expect(buildFlow([' if ', 'end ']).issues).toEqual([]);
});

test.describe('blocks that do not nest are reported at the command to fix', () => {
  const cases: Array<[string, string[], Array<[number, string]>]> = [
    ['an end without an opener', ['click', 'end'], [[1, 'end closes no block: no if, while, times or forEach is open']]],
    ['an end closing a do', ['do', 'click', 'end'], [[2, 'end cannot close the do of command 1: a do block ends with repeatIf']]],
    ['an else outside an if', ['else', 'end'], [[0, 'else outside an if block'], [1, 'end closes no block: no if, while, times or forEach is open']]],
    ['an else inside a loop of an if', ['if', 'while', 'else', 'end', 'end'], [[2, 'else outside an if block (the innermost open block is the while of command 2)']]],
    ['an elseIf outside an if', ['times', 'elseIf', 'end'], [[1, 'elseIf outside an if block (the innermost open block is the times of command 1)']]],
    ['two elses', ['if', 'else', 'else', 'end'], [[2, 'a second else in the if block of command 1 (the first is command 2)']]],
    ['an elseIf after the else', ['if', 'else', 'elseIf', 'end'], [[2, 'elseIf after the else of command 2: an elseIf comes before the else']]],
    ['a repeatIf without a do', ['click', 'repeatIf'], [[1, 'repeatIf without a do: a repeatIf closes the do block above it']]],
    ['a repeatIf closing a loop', ['while', 'repeatIf', 'end'], [[1, 'repeatIf without a do: a repeatIf closes the do block above it']]],
    ['a block inside a do left open', ['do', 'if', 'click', 'repeatIf'], [[1, 'the if block is not closed before the repeatIf of command 4: add an end']]],
    ['an if never closed', ['if', 'click'], [[0, 'the if block is never closed: add an end']]],
    ['loops never closed', ['while', 'times', 'end', 'forEach'], [
      [0, 'the while block is never closed: add an end'],
      [3, 'the forEach block is never closed: add an end'],
    ]],
    ['a do never closed', ['do', 'click'], [[0, 'the do block is never closed: add a repeatIf']]],
    ['a break outside a loop', ['break'], [[0, 'break outside a loop: break leaves the innermost while, times, forEach or do']]],
    ['a break in an if outside a loop', ['if', 'break', 'end'], [[1, 'break outside a loop: break leaves the innermost while, times, forEach or do']]],
  ];
  for (const [title, names, expected] of cases) {
    test(title, () => {
      expect(buildFlow(names).issues.map((issue) => [issue.index, issue.message])).toEqual(expected);
    });
  }
});

test('a disabled control-flow command is an ordinary one: it opens and closes nothing', () => {
  expect(isFlowCommand('//end')).toBe(false);
  expect(buildFlow(['if', '//end', 'end']).issues).toEqual([]);
});

test('the loop limit is Selenium IDE\'s default', () => {
  expect(MAX_LOOP_ITERATIONS).toBe(1000);
});
