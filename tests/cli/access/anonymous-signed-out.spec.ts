import { runMain } from '../../support/cli-in-process.js';
import { formLoginProcedure } from '../../support/config-texts.js';
import { writeTempConfig } from '../../support/temp-files.js';
import { test, expect } from '../../support/demo.js';

// Issue 35, item 2: `anonymous` was judged by its statuses alone, so a 200 "please sign in" page
// was an unexpected allow ("possible broken access control"). The signed-out rules apply to it
// too: the top-level validation's not_match, every user's reauth.on_body, the login redirect.

const config = (top: string) => `${top}
procedures:
${formLoginProcedure('${DEMO_URL}')}users:
  - name: dave
    procedure: form-login
    credentials: { username: dave, password: dave-password }
access:
  requests:
    - name: whoami page
      url: \${DEMO_URL}/ends/ok/whoami
    - name: rpc user.get
      method: POST
      url: \${DEMO_URL}/rpc
      body: { jsonrpc: "2.0", method: user.get, id: 1 }
      unsafe: true
    - name: redirecting whoami
      url: \${DEMO_URL}/ends/redirect/whoami
  expect:
    dave: { rpc user.get: deny, "*": allow }
    anonymous: deny
`;

async function matrix(text: string, url: string) {
  const { file, remove } = writeTempConfig(text);
  try {
    const run = await runMain(['matrix', '-c', file, '--json'], { env: { DEMO_URL: url } });
    return { ...run, observed: JSON.parse(run.stdout || '{}') as { ok: boolean; cells: Record<string, Record<string, { outcome: string; status: number; why?: string; unexpected: boolean }>>; problems: string[] } };
  } finally {
    remove();
  }
}

test("the top-level validation's not_match: anonymous's 200 'not logged in' page is a deny", async ({ demo }) => {
  demo.clear();
  const run = await matrix(config('validation: { url: "${DEMO_URL}/ends/ok/whoami", not_match: "You are not logged in|Session terminated" }'), demo.url);
  expect(run.stderr).toBe('');
  expect(run.observed.problems).toEqual([]);
  expect(run.code).toBe(0);
  expect(run.observed.cells.anonymous?.['whoami page']).toEqual({ outcome: 'deny', status: 200, expected: 'deny', unexpected: false, why: "the body matches the user's validation not_match" });
  // The login redirect, as before (no on_redirect: a path that looks like a login page).
  expect(run.observed.cells.anonymous?.['redirecting whoami']).toMatchObject({ outcome: 'deny', status: 302, unexpected: false });
});

test("a user's reauth.on_body: anonymous's (and a user's) 200 that says the session ended is a deny", async ({ demo }) => {
  demo.clear();
  const run = await matrix(config('reauth: { on_body: ["You are not logged in", "Session terminated"] }'), demo.url);
  expect(run.stderr).toBe('');
  expect(run.observed.problems).toEqual([]);
  expect(run.code).toBe(0);
  expect(run.observed.cells.anonymous?.['whoami page']).toMatchObject({ outcome: 'deny', status: 200, why: 'the body says "signed out" (reauth.on_body "You are not logged in")' });
  expect(run.observed.cells.anonymous?.['rpc user.get']).toMatchObject({ outcome: 'deny', status: 200, why: 'the body says "signed out" (reauth.on_body "Session terminated")' });
  // dave's cookie carries no JSON-RPC token: his own on_body says "signed out" too.
  expect(run.observed.cells.dave?.['rpc user.get']).toMatchObject({ outcome: 'deny', status: 200 });
  expect(run.observed.cells.dave?.['whoami page']).toMatchObject({ outcome: 'allow', status: 200 });
  // The matrix signs nobody in again for it.
  expect(demo.counters.signIns).toEqual({ dave: 1 });
});
