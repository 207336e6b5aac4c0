import type { BrowserContext } from 'playwright-core';
import type { BrowserCommand } from '../../../../src/config/schema/index.js';
import { MAX_LOOP_ITERATIONS } from '../../../../src/runtime/protocols/browser/control-flow.js';
import { c, expect, failure, op, run, test } from './support.js';

/** Runs `commands` on the flow page and returns the lines `echo` wrote, and the variables. */
async function echoes(
  context: BrowserContext,
  url: string,
  commands: BrowserCommand[],
  scope: Record<string, string> = {},
): Promise<{ lines: string[]; variables: Record<string, string> }> {
  const lines: string[] = [];
  const result = await run(context, op([c('open', url), ...commands]), scope, { log: (line) => lines.push(line) });
  return { lines, variables: result.variables };
}

/** Runs `commands` on the flow page and returns the error they end with (screenshots in the test's output). */
async function flowFailure(context: BrowserContext, url: string, commands: BrowserCommand[], scope: Record<string, string> = {}) {
  return failure(context, op([c('open', url), ...commands]), scope, { screenshotDir: test.info().outputPath('screenshots') });
}

test.describe('if', () => {
  // The recorded sign-in confirms a consent page that the provider shows only sometimes.
  const signIn = [
    c('waitForElementPresent', 'id=status'),
    c('if', 'document.querySelector("#consent") !== null'),
    c('click', 'id=allow'),
    c('end'),
    c('storeText', 'id=status', 'status'),
  ];

  test('confirm consent if it is shown: a true condition runs the branch', async ({ context, pages }) => {
    const result = await run(context, op([c('open', `${pages.url}/flow.html?ask`), ...signIn]));
    expect(result.variables.status).toBe('signed in, consent given');
  });

  test('confirm consent if it is shown: a false condition skips the branch (whose click would fail)', async ({ context, pages }) => {
    const result = await run(context, op([c('open', `${pages.url}/flow.html`), ...signIn], { wait: 1 }));
    expect(result.variables.status).toBe('signed in');
  });

  test('${name} in the condition is the variable\'s value, passed as executeScript passes it', async ({ context, pages }) => {
    const { lines } = await echoes(context, `${pages.url}/flow.html`, [
      c('storeJson', '{"roles": ["admin"]}', 'account'),
      c('if', '${role} === "admin" && ${account}.roles.includes(${role}) && ${quote}.length === 9'),
      c('echo', 'admin'),
      c('end'),
      c('if', '${role} === "viewer"'),
      c('echo', 'viewer'),
      c('end'),
    ], { role: 'admin', quote: 'it\'s "ok"' });
    expect(lines).toEqual(['admin']);
  });

  test('elseIf and else: the first clause that holds runs, and no condition after it is evaluated', async ({ context, pages }) => {
    const chain = [
      c('if', '${n} === "1"'),
      c('echo', 'one'),
      c('elseIf', '${n} === "2"'),
      c('echo', 'two'),
      c('elseIf', '${n} === "3" || nope()'),
      c('echo', 'three'),
      c('else'),
      c('echo', 'other'),
      c('end'),
      c('echo', 'after'),
    ];
    const url = `${pages.url}/flow.html`;
    // n = 1 runs the first branch: the last elseIf, which would throw (nope is not defined), is never evaluated.
    expect((await echoes(context, url, chain, { n: '1' })).lines).toEqual(['one', 'after']);
    expect((await echoes(context, url, chain, { n: '2' })).lines).toEqual(['two', 'after']);
    expect((await echoes(context, url, chain, { n: '3' })).lines).toEqual(['three', 'after']);
    const error = await flowFailure(context, url, chain, { n: '4' });
    expect(error.message).toMatch(/^test "sign in", command 6 \(elseIf "\$\{n\} === "3" \|\| nope\(\)"\): the condition failed: ReferenceError: nope is not defined; screenshot: /);
  });

  test('an if whose condition is false and that has no else runs nothing', async ({ context, pages }) => {
    const { lines } = await echoes(context, `${pages.url}/flow.html`, [c('if', 'false'), c('echo', 'never'), c('elseIf', '0'), c('echo', 'never'), c('end')]);
    expect(lines).toEqual([]);
  });
});

test.describe('loops', () => {
  test('while with a counter: the condition is checked before each round', async ({ context, pages }) => {
    const { lines, variables } = await echoes(context, `${pages.url}/flow.html`, [
      c('executeScript', 'return 0', 'n'),
      c('while', '${n} < 3'),
      c('click', 'id=add'),
      c('executeScript', 'return ${n} + 1', 'n'),
      c('echo', 'round ${n}'),
      c('end'),
      c('while', 'false'),
      c('echo', 'never'),
      c('end'),
      c('storeElementCount', 'css=#items li', 'items'),
    ]);
    expect(lines).toEqual(['round 1', 'round 2', 'round 3']);
    expect(variables).toMatchObject({ n: '3', items: '3' });
  });

  test('do … repeatIf: the body runs once, then again while the condition holds', async ({ context, pages }) => {
    const { lines, variables } = await echoes(context, `${pages.url}/flow.html`, [
      c('do'),
      c('click', 'id=add'),
      c('repeatIf', 'document.querySelectorAll("#items li").length < 4'),
      c('storeElementCount', 'css=#items li', 'items'),
      c('do'),
      c('echo', 'once'),
      c('repeatIf', 'false'),
    ]);
    expect(variables.items).toBe('4');
    expect(lines).toEqual(['once']);
  });

  test('times runs its body N times; the number may come from a variable; 0 runs nothing', async ({ context, pages }) => {
    const { lines } = await echoes(context, `${pages.url}/flow.html`, [
      c('times', '2'),
      c('echo', 'twice'),
      c('end'),
      c('times', '${count}'),
      c('echo', 'from a variable'),
      c('end'),
      c('times', '0'),
      c('echo', 'never'),
      c('end'),
    ], { count: '3' });
    expect(lines).toEqual(['twice', 'twice', 'from a variable', 'from a variable', 'from a variable']);
  });

  test('forEach runs once per item of an array from storeJson or executeScript, the item in the value\'s variable', async ({ context, pages }) => {
    const { lines, variables } = await echoes(context, `${pages.url}/flow.html`, [
      c('storeJson', '["alice", "bob"]', 'names'),
      c('forEach', 'names', 'name'),
      c('echo', 'hello ${name}'),
      c('end'),
      c('executeScript', 'return [{"id": 1}, {"id": 2}, {"id": 3}]', 'rows'),
      c('executeScript', 'return 0', 'sum'),
      c('forEach', 'rows', 'row'),
      c('executeScript', 'return ${sum} + ${row}.id', 'sum'),
      c('end'),
      c('storeJson', '[]', 'empty'),
      c('forEach', 'empty', 'nothing'),
      c('echo', 'never'),
      c('end'),
    ]);
    expect(lines).toEqual(['hello alice', 'hello bob']);
    expect(variables).toMatchObject({ name: 'bob', sum: '6', row: '{"id":3}' });
    expect(variables).not.toHaveProperty('nothing');
  });

  test('forEach over a variable that is not an array fails, naming the test, command and variable', async ({ context, pages }) => {
    const error = await flowFailure(context, `${pages.url}/flow.html`, [c('forEach', 'list', 'item'), c('end')], { list: '["a"]' });
    expect(error.message).toMatch(/^test "sign in", command 2 \(forEach "list"\): the variable "list" is not an array \(it holds text that looks like a JSON array\); store an array with storeJson or executeScript \(storeJson \$\{list\} turns JSON text into one\); screenshot: /);
    const unset = await flowFailure(context, `${pages.url}/flow.html`, [c('forEach', 'missing', 'item'), c('end')]);
    expect(unset.message).toContain('command 2 (forEach "missing"): the variable "missing" is not set');
  });

  test('break leaves the innermost loop, from inside an if, in while, times and do', async ({ context, pages }) => {
    const { lines, variables } = await echoes(context, `${pages.url}/flow.html`, [
      c('executeScript', 'return 0', 'n'),
      c('while', 'true'),
      c('executeScript', 'return ${n} + 1', 'n'),
      c('if', '${n} >= 3'),
      c('break'),
      c('end'),
      c('end'),
      c('times', '5'),
      c('echo', 'times once'),
      c('break'),
      c('echo', 'never'),
      c('end'),
      c('do'),
      c('echo', 'do once'),
      c('break'),
      c('repeatIf', 'true'),
      c('echo', 'after'),
    ]);
    expect(variables.n).toBe('3');
    expect(lines).toEqual(['times once', 'do once', 'after']);
  });

  test('nested blocks: an inner loop starts afresh each round of the outer one', async ({ context, pages }) => {
    const { lines } = await echoes(context, `${pages.url}/flow.html`, [
      c('storeJson', '["a", "b"]', 'outer'),
      c('forEach', 'outer', 'letter'),
      c('times', '2'),
      c('if', '${letter} === "b"'),
      c('echo', '${letter}!'),
      c('else'),
      c('echo', '${letter}'),
      c('end'),
      c('end'),
      c('do'),
      c('echo', 'do ${letter}'),
      c('repeatIf', 'false'),
      c('end'),
    ]);
    expect(lines).toEqual(['a', 'a', 'do a', 'b!', 'b!', 'do b']);
  });
});

test.describe('the iteration limit', () => {
  test(`times runs ${MAX_LOOP_ITERATIONS} times, and fails past that, naming the test, command index and command`, async ({ context, pages }) => {
    const url = `${pages.url}/flow.html`;
    const { lines } = await echoes(context, url, [c('times', String(MAX_LOOP_ITERATIONS)), c('echo', 'x'), c('end')]);
    expect(lines).toHaveLength(MAX_LOOP_ITERATIONS);
    const error = await flowFailure(context, url, [c('times', String(MAX_LOOP_ITERATIONS + 1)), c('end')]);
    expect(error.code).toBe('BROWSER_STEP_FAILED');
    expect(error.message).toMatch(/^test "sign in", command 2 \(times "1001"\): the loop ran 1000 times and would run again \(the limit is 1000\); screenshot: /);
    expect(error.render?.()).toContain('Recommended fix: The loop did not end: check that the commands inside it change what its condition reads');
  });

  test('a while whose condition never turns false fails instead of hanging', async ({ context, pages }) => {
    const lines: string[] = [];
    const error = await failure(
      context,
      op([c('open', `${pages.url}/flow.html`), c('while', 'document.title === "Flow"'), c('echo', 'round'), c('end')]),
      {},
      { log: (line) => lines.push(line), screenshotDir: test.info().outputPath('screenshots') },
    );
    expect(error.message).toMatch(/^test "sign in", command 2 \(while "document\.title === "Flow""\): the loop ran 1000 times and would run again/);
    expect(lines).toHaveLength(MAX_LOOP_ITERATIONS);
  });

  test('do … repeatIf is bounded too; the error names the repeatIf', async ({ context, pages }) => {
    const error = await flowFailure(context, `${pages.url}/flow.html`, [c('do'), c('store', 'x', 'y'), c('repeatIf', 'true')]);
    expect(error.message).toMatch(/^test "sign in", command 4 \(repeatIf "true"\): the loop ran 1000 times and would run again/);
  });
});

test('the value of while, repeatIf and times sets the loop limit, as in Selenium IDE', async ({ context, pages }) => {
  const url = `${pages.url}/flow.html`;
  const lines: string[] = [];
  const error = await failure(
    context,
    op([c('open', url), c('while', 'true', '3'), c('echo', 'round'), c('end')]),
    {},
    { log: (line) => lines.push(line), screenshotDir: test.info().outputPath('screenshots') },
  );
  expect(error.message).toMatch(/^test "sign in", command 2 \(while "true"\): the loop ran 3 times and would run again \(the limit is 3\)/);
  expect(lines).toHaveLength(3);
  // Past the default of 1000 when the value says so.
  const { lines: many } = await echoes(context, url, [c('times', '1200', '1500'), c('echo', 'x'), c('end')]);
  expect(many).toHaveLength(1200);
  const bad = await flowFailure(context, url, [c('times', '2', 'lots'), c('end')]);
  expect(bad.message).toContain('the loop limit (value) must be a whole number from 1 to 100000, not "lots"');
});

test.describe('errors', () => {
  test('a condition that does not parse fails the step at that command', async ({ context, pages }) => {
    const error = await flowFailure(context, `${pages.url}/flow.html`, [c('echo', 'before'), c('while', '1 +'), c('end')]);
    expect(error.message).toMatch(/^test "sign in", command 3 \(while "1 \+"\): the condition failed: SyntaxError/);
    expect(error.render?.()).toContain('Recommended fix: Fix the condition: a JavaScript expression run in the selected frame');
  });

  test('times with a variable that is not a number fails at the command', async ({ context, pages }) => {
    const error = await flowFailure(context, `${pages.url}/flow.html`, [c('times', '${count}'), c('end')], { count: 'many' });
    expect(error.message).toMatch(/^test "sign in", command 2 \(times "many"\): times needs a whole number of times, not "many"/);
  });

  test('blocks that do not nest are refused before anything runs', async ({ context, pages }) => {
    const before = pages.received.length;
    const error = await failure(context, op([
      c('open', `${pages.url}/flow.html?unbalanced`),
      c('if', 'true'),
      c('echo', 'never'),
    ]));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toBe('test "sign in", command 2 (if): the if block is never closed: add an end');
    expect(pages.received.slice(before).some((request) => request.url.includes('unbalanced'))).toBe(false);
  });
});
