import { c, expect, failure, op, run, test } from './support.js';

test('store, storeText, storeValue, storeAttribute, storeTitle, storeJson and storeElementCount', async ({ context, pages }) => {
  const result = await run(
    context,
    op([
      c('open', `${pages.url}/scripts.html`),
      c('store', 'plain ${username}', 'stored'),
      c('storeAttribute', 'id=logo@data-token', 'attr'),
      c('storeAttribute', 'css=img[alt="The logo"]@alt', 'alt'),
      c('storeTitle', 'title'),
      c('storeTitle', '', 'titleFromValue'),
      c('storeJson', '{"a": [1, 2], "who": "${username}"}', 'json'),
      c('open', `${pages.url}/form.html`),
      c('storeText', 'id=heading', 'text'),
      c('type', 'id=username', 'bob'),
      c('storeValue', 'name=username', 'value'),
      c('storeElementCount', 'css=ul.items li', 'count'),
      c('storeElementCount', 'id=nothing', 'none'),
    ]),
    { username: 'alice' },
  );
  expect(result.variables).toEqual({
    stored: 'plain alice',
    attr: 'attr-token',
    alt: 'The logo',
    title: 'Scripts',
    titleFromValue: 'Scripts',
    json: '{"a":[1,2],"who":"alice"}',
    text: 'Sign in',
    value: 'bob',
    count: '3',
    none: '0',
  });
});

test('stored variables feed later commands through ${name} and {{name}}', async ({ context, pages }) => {
  const result = await run(
    context,
    op([
      c('open', `${pages.url}/form.html`),
      c('storeText', 'id=heading', 'heading'),
      c('type', 'id=username', '${heading} / {{heading}}'),
      c('storeValue', 'id=username', 'copy'),
    ]),
  );
  expect(result.variables.copy).toBe('Sign in / Sign in');
});

test('storeAttribute fails when the attribute is missing', async ({ context, pages }) => {
  const error = await failure(context, op([c('open', `${pages.url}/scripts.html`), c('storeAttribute', 'id=logo@data-missing', 'x')]));
  expect(error.message).toContain('the element has no attribute "data-missing"');
});

test('executeScript runs a function body: return stores, ${name} passes the value as an argument', async ({ context, pages }) => {
  const result = await run(
    context,
    op([
      c('open', `${pages.url}/scripts.html`),
      c('storeJson', '{"n": 2}', 'obj'),
      c('executeScript', 'return ${quote} + "|" + ${obj}.n * 21 + "|" + `${1 + 1}`', 'out'),
      c('executeScript', 'return "{{ name }}".toUpperCase()', 'fromTemplate'),
      c('executeScript', 'document.getElementById("out").textContent = "set"'),
      c('storeText', 'id=out', 'text'),
      c('executeScript', 'return {a: [1, "b"]}', 'object'),
      c('executeScript', 'return 7', 'number'),
    ]),
    { quote: 'it\'s "quoted"', name: 'alice' },
  );
  expect(result.variables).toEqual({
    obj: '{"n":2}',
    out: 'it\'s "quoted"|42|2',
    fromTemplate: 'ALICE',
    text: 'set',
    object: '{"a":[1,"b"]}',
    number: '7',
  });
});

test('executeAsyncScript awaits the returned promise; runScript runs in the global scope', async ({ context, pages }) => {
  const result = await run(
    context,
    op([
      c('open', `${pages.url}/welcome.html`),
      c('executeAsyncScript', 'return fetch("/api/me", { headers: { Authorization: "Bearer " + ${token} } }).then((r) => r.json()).then((b) => b.access_token)', 'apiToken'),
      c('runScript', 'var globalFromScript = 40 + 2;'),
      c('executeScript', 'return window.globalFromScript', 'global'),
      c('runScript', 'window.fromArgs = ${token}.length'),
      c('executeScript', 'return window.fromArgs', 'length'),
    ]),
    { token: 'local-token-123' },
  );
  expect(result.variables).toEqual({ apiToken: 'api-token-789', global: '42', length: '15' });
});

test('a script that throws fails the step with the script\'s error', async ({ context, pages }) => {
  const error = await failure(context, op([c('open', `${pages.url}/scripts.html`), c('executeScript', 'throw new Error("boom")', 'x')]));
  expect(error.message).toContain('the script failed: Error: boom');
  const runError = await failure(context, op([c('open', `${pages.url}/scripts.html`), c('runScript', 'nope(')]));
  expect(runError.message).toContain('the script failed: SyntaxError');
});
