import { SHORT_WAIT, c, expect, failure, failureAfterOpen, op, run, test } from './support.js';

test('type replaces the value of inputs (password included) and sets the value of other inputs', async ({ context, pages }) => {
  const result = await run(
    context,
    op([
      c('open', `${pages.url}/controls.html`),
      c('type', 'id=editable', 'fresh'),
      c('storeValue', 'id=editable', 'text'),
      c('type', 'id=check', 'on'),
      c('open', `${pages.url}/form.html`),
      c('type', 'id=password', '{{password}}'),
      c('storeValue', 'id=password', 'password'),
    ]),
    { password: 'p@ss "word"' },
  );
  expect(result.variables).toMatchObject({ text: 'fresh', password: 'p@ss "word"' });
});

test('sendKeys types at the end, presses special keys and holds modifiers until KEY_NULL', async ({ context, pages }) => {
  const result = await run(
    context,
    op([
      c('open', `${pages.url}/controls.html`),
      c('sendKeys', 'id=keys', 'c${KEY_BACKSPACE}d${KEY_LEFT}${KEY_SHIFT}e${KEY_NULL}f${KEY_TAB}'),
      c('storeValue', 'id=keys', 'value'),
      c('storeText', 'id=keylog', 'log'),
    ]),
  );
  expect(result.variables.value).toBe('abEfd');
  expect(result.variables.log).toBe('c Backspace d ArrowLeft Shift S-E f Tab');
});

test('sendKeys with ${KEY_ENTER} submits a form; text from variables is typed as is', async ({ context, pages }) => {
  const result = await run(
    context,
    op([
      c('open', `${pages.url}/form.html`),
      c('sendKeys', 'id=username', '${user}'),
      c('sendKeys', 'id=password', '{{password}}${KEY_ENTER}'),
      c('waitForElementPresent', 'id=greeting'),
      c('storeTitle', 'title'),
    ]),
    { user: 'x${KEY_ENTER}', password: 'correct horse battery' },
  );
  expect(result.variables.title).toBe('Welcome');
  const login = pages.received.filter((r) => r.url === '/login').at(-1);
  expect(new URLSearchParams(login?.body).get('username')).toBe('x${KEY_ENTER}');
});

test('select by label, value, index, id and bare label; addSelection and removeSelection', async ({ context, pages }) => {
  const result = await run(
    context,
    op([
      c('open', `${pages.url}/controls.html`),
      c('select', 'id=single', 'label=Gamma ray'),
      c('storeValue', 'id=single', 'byLabel'),
      c('select', 'id=single', 'value=a'),
      c('storeValue', 'id=single', 'byValue'),
      c('select', 'id=single', 'index=1'),
      c('storeValue', 'id=single', 'byIndex'),
      c('select', 'id=single', 'id=opt-b'),
      c('assertSelectedLabel', 'id=single', 'Beta'),
      c('select', 'id=single', 'Alpha'),
      c('storeValue', 'id=single', 'bare'),
      c('addSelection', 'id=multi', 'label=Ex'),
      c('addSelection', 'id=multi', 'value=z'),
      c('removeSelection', 'id=multi', 'label=Why'),
      c('executeScript', 'return Array.from(document.getElementById("multi").selectedOptions).map(o => o.value).join(",")', 'multi'),
    ]),
  );
  expect(result.variables).toMatchObject({ byLabel: 'c', byValue: 'a', byIndex: 'b', bare: 'a', multi: 'x,z' });
});

test('select fails when no option matches', async ({ context, pages }) => {
  const error = await failureAfterOpen(context, `${pages.url}/controls.html`, [c('select', 'id=single', 'label=Omega')], SHORT_WAIT);
  expect(error.message).toContain('no option matches the value (label=)');
});

test('editContent sets the text of a contenteditable element, and refuses other elements', async ({ context, pages }) => {
  const result = await run(
    context,
    op([c('open', `${pages.url}/controls.html`), c('editContent', 'id=rich', 'new text'), c('storeText', 'id=rich', 'rich')]),
  );
  expect(result.variables.rich).toBe('new text');
  const error = await failure(context, op([c('open', `${pages.url}/controls.html`), c('editContent', 'id=hovered', 'x')]));
  expect(error.message).toContain('not content editable');
});

test('submit runs the form\'s submit handlers; outside a form it fails', async ({ context, pages }) => {
  const result = await run(
    context,
    op([
      c('open', `${pages.url}/scripts.html`),
      c('type', 'id=q', 'query'),
      c('submit', 'id=q'),
      c('waitForText', 'id=submitted', 'yes query'),
      c('open', `${pages.url}/form.html`),
      c('type', 'id=username', 'alice'),
      c('type', 'id=password', 'correct horse battery'),
      c('submit', 'id=login'),
      c('waitForElementPresent', 'id=greeting'),
      c('storeTitle', 'title'),
    ]),
  );
  expect(result.variables.title).toBe('Welcome');
  const error = await failure(context, op([c('open', `${pages.url}/scripts.html`), c('submit', 'id=out')]));
  expect(error.message).toContain('not a form nor inside one');
});
