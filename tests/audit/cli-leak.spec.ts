import { test, expect } from '../support/demo.js';
import { runCliAsync } from '../support/cli.js';
import { runMain } from '../support/cli-in-process.js';
import { removeTempDirs, tempDir } from '../support/temp-files.js';
import { CHROMIUM } from '../support/chromium.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findLeaks } from './secrets.js';

// Issue 13, item 5: what the CLI prints about a config pasted from a browser's dev tools: cookies
// given with -b, a token the sign-in produced, and a browser step that fails on a URL carrying an
// authorization code. The search is shown to find a planted secret: `--reveal` prints the token.

test.describe.configure({ timeout: 120_000 });
test.afterAll(removeTempDirs);

const COOKIES = ['cookie-secret-4711', 'theme-secret-0815'];
/** The demo identity provider's authorization codes. */
const DEMO_CODE = /code_[0-9a-f]{32}/;

function config(demoUrl: string): string {
  return `
presets:
  - type: curl
    users:
      - username: alice
        curl: >-
          curl '${demoUrl}/auth/token' -b 'tracking=${COOKIES[0]}; theme=${COOKIES[1]}'
          -H 'Content-Type: application/json' --data-raw '{"username":"alice","password":"alice-password"}'
    extractions: [{ name: token, location: body, key: data.auth.access_token }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: token }]
procedures:
  - name: callback-page
    operations:
      - tech: browser
        parameters:
          options: { wait_for_seconds: 2 }
          project:
            tests:
              - id: t1
                name: sign in
                commands:
                  - { id: c1, command: open, target: "${demoUrl}/sso/start?client_id=demo-cli" }
                  - { id: c2, command: type, target: "id=idp-username", value: "{{username}}" }
                  - { id: c3, command: type, target: "id=idp-password", value: "{{password}}" }
                  - { id: c4, command: click, target: "css=button[type=submit]" }
                  - { id: c5, command: wait, target: "request_url_contains=/callback", value: "10" }
                  - { id: c6, command: assertTitle, target: "Dashboard" }
users:
  - name: carol
    procedure: callback-page
    credentials: { username: carol, password: carol-password }
`;
}

// The failing browser login runs the published bin in a child process, as users run it; the other commands run
// `main` in this process (the bin only hands it the process's streams): a Node start less each (issue 36).
test('validate --explain and login --json print no -b cookie, password or token; a browser step failing on a callback shows no code', async ({ demo }) => {
  const dir = tempDir();
  writeFileSync(join(dir, 'multiauth.yaml'), config(demo.url));
  const env = { MULTIAUTH_BROWSER_PATH: CHROMIUM };

  const revealed = await runMain(['login', 'alice', '--json', '--reveal'], { cwd: dir, env });
  expect(revealed.code, revealed.stderr).toBe(0);
  const token = (JSON.parse(revealed.stdout) as { headers: Record<string, string[]> }).headers.Authorization?.[0]?.replace(/^Bearer /, '') ?? '';
  expect(token.length).toBeGreaterThan(20);
  const secrets = [...COOKIES, 'alice-password', 'carol-password', token];
  expect(findLeaks([{ name: 'login --json --reveal', text: revealed.stdout }], secrets)).not.toEqual([]);

  const explain = await runMain(['validate', '--explain'], { cwd: dir, env });
  expect(explain.code, explain.stderr).toBe(0);
  expect(explain.stdout).toContain("-b '********'");

  const login = await runMain(['login', 'alice', '--json'], { cwd: dir, env });
  expect(login.code, login.stderr).toBe(0);
  const printed = JSON.parse(login.stdout) as { user: string; headers: Record<string, string[]> };
  expect(printed.user).toBe('alice');
  expect(printed.headers.Authorization).toEqual(['********']);

  const failed = await runCliAsync(['login', 'carol'], { cwd: dir, env });
  expect(failed.code).toBe(1);
  // The step fails on the callback page, whose URL holds the code the identity provider issued.
  expect(failed.stderr).toMatch(/command 6 \(assertTitle "Dashboard"\)/);
  expect(failed.stderr).toContain('/callback?code=…');
  expect(failed.stderr).not.toMatch(DEMO_CODE);

  const outputs = [explain, login, failed].flatMap((run, i) => [
    { name: `run ${i} stdout`, text: run.stdout },
    { name: `run ${i} stderr`, text: run.stderr },
  ]);
  expect(findLeaks(outputs, secrets)).toEqual([]);
});
