import { Redactor } from '../../src/core/redactor.js';
import { MultiAuthError } from '../../src/core/errors.js';
import { authenticate } from '../../src/runtime/engine/authenticate.js';
import { test, expect } from '../support/demo.js';
import { planFromYaml } from '../support/plan.js';

// Issue 24, item 4: real web apps refuse a wrong password with 200 and their form again, or with
// a deleted cookie, and their 403 pages open with kilobytes of CSS. The error must quote what the
// app said, and say that the credentials were probably refused.

/** A user signing in with one form POST to `path`, the session read from cookie `cookie`. */
function formUser(origin: string, path: string, cookie: string, password: string, extraction = `{ name: session, location: cookie, key: ${cookie} }`): string {
  return `
procedures:
  - name: form
    operations:
      - tech: http
        parameters:
          url: ${origin}${path}
          method: POST
          headers: [{ name: Content-Type, values: [application/x-www-form-urlencoded] }]
          body: "username={{username}}&password={{password}}"
          follow_redirects: 0
        extractions: [${extraction}]
    injections: [{ location: cookie, key: ${cookie}, variable: session }]
users:
  - name: alice
    credentials: { username: alice, password: ${password} }
    procedure: form
`;
}

async function failure(yaml: string): Promise<MultiAuthError> {
  const error = await authenticate(planFromYaml(yaml), 'alice', { redactor: new Redactor() }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MultiAuthError);
  return error as MultiAuthError;
}

test('a wrong password answered 200 with the form again: the error quotes the form\'s message and says the credentials were refused', async ({ demo }) => {
  const error = await failure(formUser(demo.url, '/refusing/login', 'sessionid', 'wrong-pass-4411'));
  expect(error.code).toBe('EXTRACTION_NOT_FOUND');
  const text = error.render();
  expect(text).toContain('the page says: "Please enter the correct username and password"');
  expect(text).toContain('the server answered the sign-in with its form again: the credentials were probably refused'.replace(/^t/, 'T'));
  expect(text).not.toContain('html * {');
  expect(text).not.toContain('wrong-pass-4411');
});

test('a body regex that finds nothing on the form answered again gets the same explanation', async ({ demo }) => {
  const error = await failure(formUser(demo.url, '/refusing/login', 'sessionid', 'wrong-pass-4411', '{ name: session, location: body, key: nonce, regex: "nonce=(\\\\w+)" }'));
  expect(error.render()).toContain('Please enter the correct username and password');
  expect(error.hint).toMatch(/^The server answered the sign-in with its form again: the credentials were probably refused/);
});

test('the right password through the same form signs in', async ({ demo }) => {
  const session = await authenticate(planFromYaml(formUser(demo.url, '/refusing/login', 'sessionid', 'alice-password')), 'alice', { redactor: new Redactor() });
  expect(session.cookies.map((c) => c.name)).toContain('sessionid');
});

test('a 403 page whose head is CSS is quoted by its sentence', async ({ demo }) => {
  const error = await failure(formUser(demo.url, '/refusing/forbidden', 'sessionid', 'alice-password'));
  expect(error.code).toBe('AUTH_HTTP_STATUS');
  const text = error.render();
  expect(text).toContain('response body: an HTML page (');
  expect(text).toContain('reading: "Forbidden (403) CSRF verification failed. Request aborted."');
  expect(text).not.toContain('padding');
});

test('a cookie the server deleted (Max-Age=0, expired in 1970) is no session: the sign-in fails', async ({ demo }) => {
  const error = await failure(formUser(demo.url, '/refusing/pma-login', 'pmaAuth-1', 'wrong-pass-4411'));
  expect(error.code).toBe('EXTRACTION_NOT_FOUND');
  const text = error.render();
  expect(text).toContain('no cookie "pmaAuth-1": the server deleted it');
  expect(text).toContain('cookies deleted by the server: pmaAuth-1');
  expect(text).toContain('the page says: "Cannot log in to the server: access denied for user \'alice\'"');
  expect(text).not.toContain('deleted;');
  expect(error.hint).toMatch(/^The server deleted a cookie in its answer .* the credentials were probably refused/);

  // The same answer without an extraction: the sign-in's jar does not keep the deleted cookie.
  const plain = await authenticate(
    planFromYaml(formUser(demo.url, '/refusing/pma-login', 'pmaAuth-1', 'wrong-pass-4411').replace(/extractions: \[.*\]\n    injections: \[.*\]/, 'extractions: []\n    injections: []')),
    'alice',
    { redactor: new Redactor() },
  );
  expect(plain.cookies.find((c) => c.name === 'pmaAuth-1')?.value).not.toBe('deleted');
  expect(plain.cookies.filter((c) => c.name === 'pmaAuth-1' && c.value === 'deleted')).toEqual([]);

  const session = await authenticate(planFromYaml(formUser(demo.url, '/refusing/pma-login', 'pmaAuth-1', 'alice-password')), 'alice', { redactor: new Redactor() });
  expect(session.cookies.find((c) => c.name === 'pmaAuth-1')?.value).toMatch(/^sid/);
});

test('a session check after a sign-in that ended on its form says the credentials were refused', async ({ demo }) => {
  const yaml = formUser(demo.url, '/refusing/login', 'sessionid', 'wrong-pass-4411')
    .replace(/extractions: \[.*\]\n    injections: \[.*\]/, 'extractions: []\n    injections: []')
    .replace('procedure: form', `procedure: form\n    validation: { url: "${demo.url}/refusing/home", status: [200] }`);
  const error = await failure(yaml);
  expect(error.code).toBe('AUTH_VALIDATION');
  expect(error.render()).toContain('the page says: "Please enter the correct username and password"');
  expect(error.hint).toMatch(/^The server answered the sign-in with its form again: the credentials were probably refused/);
});

// Issue 35, item 3: APIs that refuse a sign-in with a 200 and JSON; the error quotes their words.

test('a wiki API login refused with 200 {"login":{"result":"Failed","reason":…}}: the error quotes the reason', async ({ demo }) => {
  const yaml = formUser(demo.url, '/refusing/wiki-login', 'wikisession', 'wrong-pass-4411').replace(
    'body: "username={{username}}&password={{password}}"',
    'body: "action=login&format=json&lgname={{username}}&lgpassword={{password}}"',
  );
  const error = await failure(yaml);
  expect(error.code).toBe('EXTRACTION_NOT_FOUND');
  expect(error.context).toMatchObject({ user: 'alice', procedure: 'form', step: 0 });
  expect(error.details).toContain('the server says: Failed: Incorrect username or password entered. Please try again.');
  expect(error.hint).toMatch(/^The server answered HTTP 200 with words that read as a refusal \(quoted above\): the sign-in was probably refused/);
  expect(error.render()).not.toContain('wrong-pass-4411');
  const right = await authenticate(planFromYaml(yaml.replace('wrong-pass-4411', 'alice-password')), 'alice', { redactor: new Redactor() });
  expect(right.cookies.map((c) => c.name)).toContain('wikisession');
});

test('a JSON-RPC login refused with 200 and an error object: error.message and error.data quoted, the echoed password masked', async ({ demo }) => {
  const yaml = `
procedures:
  - name: rpc
    operations:
      - tech: http
        parameters:
          url: ${demo.url}/refusing/rpc-login
          method: POST
          body: { jsonrpc: "2.0", id: 7, method: call, params: { login: "{{username}}", password: "{{password}}" } }
        extractions: [{ name: sid, location: body, key: result.session_id }]
    injections: [{ location: header, key: X-Openerp-Session-Id, variable: sid }]
users:
  - name: alice
    credentials: { username: alice, password: Wrong-Pass-7733 }
    procedure: rpc
`;
  const error = await failure(yaml);
  expect(error.code).toBe('EXTRACTION_NOT_FOUND');
  expect(error.details).toContain('the server says: Server Error; Access Denied: login alice with password ********');
  const text = error.render();
  expect(text).toContain('seen: ');
  expect(text).not.toContain('Wrong-Pass-7733');
});
