import { runMain } from '../support/cli-in-process.js';
import { writeTempConfig } from '../support/temp-files.js';
import { test, expect } from '../support/demo.js';

// Issue 16, item 6: seeing what a sign-in did took reading the source. `login --verbose` prints each
// step on stderr as it runs: requests without query values, statuses, times, the names extracted,
// the injections and the session check; never a value, even with --reveal.
test('login --verbose shows each step, the injections and the check, with names and statuses only', async ({ demo }) => {
  const config = `
procedures:
  - name: token-then-form
    operations:
      - tech: http
        parameters: { url: "${demo.url}/auth/token?client=q-secret-5521", method: POST, body: { username: "{{username}}", password: "{{password}}" } }
        extractions: [{ name: token, location: body, key: data.auth.access_token }]
      - tech: http
        parameters:
          url: ${demo.url}/auth/form-login
          method: POST
          headers: [{ name: Content-Type, values: [application/x-www-form-urlencoded] }]
          body: "username={{username}}&password={{password}}"
          follow_redirects: 0
        extractions: [{ name: sid, location: cookie, key: sid }]
    injections:
      - { location: header, key: Authorization, prefix: Bearer, variable: token }
      - { location: cookie, key: sid, variable: sid }
users:
  - name: dave
    credentials: { username: dave, password: dave-password }
    procedure: token-then-form
    validation: { url: "${demo.url}/whoami" }
`;
  const { file, remove } = writeTempConfig(config);
  try {
    for (const reveal of [[], ['--reveal']]) {
      const run = await runMain(['login', 'dave', '-c', file, '--verbose', ...reveal]);
      expect(run.code, run.stderr).toBe(0);
      const lines = run.stderr.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^step 1 \(http\) of procedure "token-then-form": \d+ ms$/);
      expect(lines[1]).toBe(`  POST ${demo.url}/auth/token?client=… -> 200`);
      expect(lines[2]).toBe('  extracted: token');
      expect(lines[3]).toMatch(/^step 2 \(http\) of procedure "token-then-form": \d+ ms$/);
      expect(lines[4]).toMatch(new RegExp(`^  POST ${demo.url}/auth/form-login -> 30\\d$`));
      expect(lines[5]).toBe('  extracted: sid');
      expect(lines[6]).toBe('injected: header Authorization, cookie sid');
      expect(lines[7]).toMatch(new RegExp(`^check: GET ${demo.url}/whoami -> 200 \\(\\d+ ms\\) ok$`));
      expect(lines).toHaveLength(8);
      expect(run.stderr).not.toContain('q-secret-5521');
      expect(run.stderr).not.toContain('dave-password');
    }
  } finally {
    remove();
  }
});

test('a failing step says so, with its time, before the error', async ({ demo }) => {
  const { file, remove } = writeTempConfig(`
presets:
  - type: http
    request: { url: "${demo.url}/auth/token", method: POST, body: { username: "{{username}}", password: "{{password}}" } }
    extractions: [{ name: token, location: body, key: data.auth.access_token }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: token }]
    users: [{ username: alice, password: not-her-password }]
`);
  try {
    const run = await runMain(['login', 'alice', '-c', file, '-v']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^step 1 \(http\) of procedure "preset\[0\]:http": failed after \d+ ms\n  POST \S+\/auth\/token -> 401\nthe server answered HTTP 401/);
    expect(run.stderr).not.toContain('not-her-password');
  } finally {
    remove();
  }
});

// Issue 24: a step that fails in its extraction made its request all the same; --verbose lists it.
test('a step failing in its extraction still lists its request and status', async ({ demo }) => {
  const { file, remove } = writeTempConfig(`
procedures:
  - name: post-only
    operations:
      - tech: http
        parameters:
          url: ${demo.url}/refusing/login
          method: POST
          headers: [{ name: Content-Type, values: [application/x-www-form-urlencoded] }]
          body: "username={{username}}&password={{password}}"
          follow_redirects: 0
        extractions: [{ name: sessionid, location: cookie, key: sessionid }]
    injections: [{ location: cookie, key: sessionid, variable: sessionid }]
users:
  - name: alice
    credentials: { username: alice, password: not-her-password }
    procedure: post-only
`);
  try {
    const run = await runMain(['login', 'alice', '-c', file, '--verbose']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^step 1 \\(http\\) of procedure "post-only": failed after \\d+ ms\\n  POST ${demo.url}/refusing/login -> 200\\n`));
    expect(run.stderr).toContain('Please enter the correct username and password');
    expect(run.stderr).not.toContain('not-her-password');
  } finally {
    remove();
  }
});
