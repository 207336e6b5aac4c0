import { test, expect } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCliAsync } from '../support/cli.js';
import { runMain } from '../support/cli-in-process.js';
import { runInlineProject } from '../support/inline-project.js';
import { startHttpServer, type RunningServer } from '../support/servers/node-http.js';
import { removeTempDirs, tempDir } from '../support/temp-files.js';
import { findLeaks, outputFiles } from './secrets.js';

// Issue 23, item 1: one regular expression built from every secret is refused by V8 once a secret
// passes about 32,000 characters, and the crash printed the pattern: every secret in clear. A token
// server here answers with a 100,000-character token, as MSAL- or Firebase-style apps keep them.

test.describe.configure({ timeout: 180_000 });
test.afterAll(removeTempDirs);

const PASSWORD = 'long-token-user-pa55word';
const TOKEN = randomBytes(75_000).toString('base64url');

let server: RunningServer;
test.beforeAll(async () => {
  server = await startHttpServer((req, res) => {
    const auth = req.headers.authorization ?? '';
    if (req.url === '/token') {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ access_token: TOKEN, token_type: 'Bearer', expires_in: 3600 }));
      });
      return;
    }
    // A page that refuses the token and quotes it back, with the password it was given.
    if (req.url === '/echo') {
      res.statusCode = 403;
      res.end(`refused ${auth} for ${PASSWORD}`);
      return;
    }
    res.statusCode = auth === `Bearer ${TOKEN}` ? 200 : 401;
    res.end(res.statusCode === 200 ? 'you are alice' : 'who are you?');
  }, { maxHeaderSize: 1 << 20 });
});
test.afterAll(() => server.close());

function config(validation: string): string {
  return `
validation: { url: "${server.url}${validation}" }
presets:
  - type: http
    request:
      url: ${server.url}/token
      method: POST
      body: { username: "{{username}}", password: "{{password}}" }
    extractions: [{ name: token, location: body, key: access_token }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: token }]
    users:
      - { username: alice, password: "${PASSWORD}" }
`;
}

// Pieces too: an excerpt cut from a body must not show the start or the end of a token.
const SECRETS = [PASSWORD, TOKEN, TOKEN.slice(0, 40), TOKEN.slice(-40)];

// The plain login of each test runs the published bin in a child process, as users run it; the
// other commands run `main` in this process (the bin only hands it the process's streams), which
// spares a Node start each (issue 36).
test('login, login --json, check and check --json mask a 100,000-character token; none exits 70', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'multiauth.yaml'), config('/whoami'));
  const runs = {
    login: await runCliAsync(['login', 'alice'], { cwd: dir }),
    loginJson: await runMain(['login', 'alice', '--json'], { cwd: dir }),
    verbose: await runMain(['login', 'alice', '--verbose'], { cwd: dir }),
    check: await runMain(['check'], { cwd: dir }),
    checkJson: await runMain(['check', '--json'], { cwd: dir }),
  };
  for (const [name, run] of Object.entries(runs)) {
    expect(run.code, `${name}: ${run.stderr.slice(0, 2000)}`).toBe(0);
    expect(findLeaks([{ name: `${name} stdout`, text: run.stdout }, { name: `${name} stderr`, text: run.stderr }], SECRETS)).toEqual([]);
  }
  const printed = JSON.parse(runs.loginJson.stdout) as { headers: Record<string, string[]> };
  expect(printed.headers.Authorization).toEqual(['********']);

  // The search finds the token where it is: --reveal prints it.
  const revealed = await runMain(['login', 'alice', '--json', '--reveal'], { cwd: dir });
  expect(findLeaks([{ name: 'revealed', text: revealed.stdout }], [TOKEN])).not.toEqual([]);
});

test('a refused validation that quotes the long token and the password prints neither, and exits 1', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'multiauth.yaml'), config('/echo'));
  for (const args of [['login', 'alice'], ['login', 'alice', '--json'], ['check'], ['check', '--json']]) {
    const run = args.length === 2 && args[0] === 'login' ? await runCliAsync(args, { cwd: dir }) : await runMain(args, { cwd: dir });
    expect(run.code, `${args.join(' ')}: ${run.stderr.slice(0, 2000)}`).toBe(1);
    expect(run.stdout + run.stderr).toMatch(/HTTP 403/);
    expect(findLeaks([{ name: args.join(' '), text: run.stdout + run.stderr }], SECRETS)).toEqual([]);
  }
});

test('a traced test of that user keeps its trace, with the token masked in it', async () => {
  const result = await runInlineProject(
    {
      'multiauth.yaml': config('/whoami'),
      'playwright.config.ts': `
import { defineConfig } from '@playwright/test';
export default defineConfig({
  outputDir: 'test-results',
  reporter: [['json', { outputFile: 'report.json' }], ['list']],
  use: { trace: 'on' },
});
`,
      'a.spec.ts': `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
test('reads as alice', async ({ authedRequest }) => {
  const answer = await authedRequest.get('${server.url}/whoami');
  expect(await answer.text()).toBe('you are alice');
});
`,
    },
    { args: ['--workers=1'] },
  );
  expect(result.exitCode, result.output.slice(0, 4000)).toBe(0);
  expect(result.output).not.toContain('could not be masked');
  const files = outputFiles(join(result.dir, 'test-results'));
  const traces = files.filter((f) => /trace\.zip#zip\/.+\.network$/.test(f.name));
  expect(traces.length, files.map((f) => f.name).join('\n')).toBeGreaterThan(0);
  // The trace holds the request, its header masked.
  expect(traces.some((f) => f.text.includes('/whoami') && f.text.includes('"name":"Authorization","value":"********"'))).toBe(true);
  expect(findLeaks([{ name: 'output', text: result.output }, ...files], SECRETS)).toEqual([]);
});
