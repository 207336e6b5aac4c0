import { existsSync, readFileSync, readdirSync, rmSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext, TestInfo } from '@playwright/test';
import { test, expect } from '@playwright/test';
import { startDemoServer, type DemoServer } from '../../fixtures/demo-server/index.js';
import { main } from '../../src/cli/main.js';
import type { PlanOperation, PlanProcedure } from '../../src/compile/plan.js';
import { MultiAuthError } from '../../src/core/errors.js';
import { unexpectedCellError } from '../../src/playwright/access-matrix.js';
import { baseUrlMismatch } from '../../src/playwright/base-url.js';
import { MATRIX_USER_KEY, warnOverriddenUser } from '../../src/playwright/sign-in-report.js';
import { warnPlainTestImports } from '../../src/playwright/plain-test-import.js';
import { shareWorkers, warnWorkerShare, WORKER_SHARE_ENV } from '../../src/playwright/worker-share.js';
import { LazySignedInUser, type BrowserParts } from '../../src/playwright/signed-in-user.js';
import type { AccessCell } from '../../src/runtime/access/matrix.js';
import { replayReport, replaySummaryLine, type ReplayRow } from '../../src/runtime/access/replay/index.js';
import { launchDiscovered } from '../../src/runtime/protocols/browser/discover.js';
import type { Session } from '../../src/runtime/index.js';
import { Redactor } from '../../src/core/redactor.js';
import { authenticate } from '../../src/runtime/engine/authenticate.js';
import { openMailReader, startMailSink } from '../../src/runtime/mail/index.js';
import { withFileLock } from '../../src/sessions/lock.js';
import { runTotals, summaryLine, type RunEvent } from '../../src/sessions/run-events.js';
import { failureFilePath, readFailure, writeFailure } from '../../src/sessions/failure-memory.js';
import { planFromYaml } from '../support/plan.js';
import { freePort } from '../support/ports.js';
import { ROOT } from '../support/root.js';
import { readBody, sendJson, startHttpServer, type RunningServer } from '../support/servers/node-http.js';
import { removeTempDirs, writeFiles } from '../support/temp-files.js';
import { CHROMIUM } from '../support/chromium.js';

// Issue 25, item 8: every message the docs quote is produced here from the code, and the quote must
// appear in what the code prints (folders read DIR, ports PORT; durations and instants are not
// compared). A quote is marked in the markdown with `<!-- message: ID -->` directly before a fenced
// block or an inline `code span`. Every ```text block of the shipped docs, and every plain fenced
// block that reads like an error (a "Recommended fix:" or a [CODE] line), must carry a marker (or
// `<!-- not a message: why -->` for a layout with placeholders), so a new quote without a producer
// below fails this file. Inline quotes are found only when marked.

/** One marked quote of a shipped markdown file. */
interface Quote {
  id: string;
  file: string;
  text: string;
}

const MARKER = /<!-- message: ([\w./-]{1,100}) -->[ \t]*\n?([ \t]*)(?:```(?:text)?\n([\s\S]{0,20000}?)\n\2```|`([^`\n]{1,2000})`)/g;
/** A fenced block: its indent, info string and text. */
const FENCE = /^([ \t]*)```([\w-]{0,20})\n([\s\S]{0,20000}?)\n\1```$/gm;

/** Whether a fenced block is a quote of what the code prints: a `text` block, or one that reads like an error. */
function quotesOutput(info: string, text: string): boolean {
  return info === 'text' || (info === '' && (/^\s*Recommended fix: /m.test(text) || /^\s*\[[A-Z_]{3,40}\]$/m.test(text)));
}

/** The shipped markdown: README, docs and examples (what `npm pack` ships; tests/docs/shipped-links.spec.ts checks that list). */
function shippedMarkdown(): string[] {
  const under = (dir: string): string[] => readdirSync(join(ROOT, dir), { recursive: true }).map(String)
    .filter((name) => name.endsWith('.md')).map((name) => `${dir}/${name}`);
  return ['README.md', ...under('docs'), ...under('examples')].sort();
}

/** Every marked quote, and every block that quotes output without a marker (as `file:line`). */
function readQuotes(): { quotes: Quote[]; unmarked: string[] } {
  const quotes: Quote[] = [];
  const unmarked: string[] = [];
  for (const file of shippedMarkdown()) {
    const markdown = readFileSync(join(ROOT, file), 'utf8');
    const marked = new Set<number>();
    // A block that only shows a layout (placeholders, no real output) says so, and is not compared.
    for (const match of markdown.matchAll(/<!-- not a message: [^>\n]{1,200} -->\n[ \t]*```/g)) marked.add((match.index ?? 0) + match[0].length - 3);
    for (const match of markdown.matchAll(MARKER)) {
      const [whole, id, indent, block, inline] = match as unknown as [string, string, string, string | undefined, string | undefined];
      const text = block !== undefined ? block.split('\n').map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line)).join('\n') : inline as string;
      quotes.push({ id, file, text });
      if (block !== undefined) marked.add((match.index ?? 0) + whole.indexOf('```'));
    }
    for (const fence of markdown.matchAll(FENCE)) {
      const [, indent, info, text] = fence as unknown as [string, string, string, string];
      const at = (fence.index ?? 0) + indent.length;
      if (quotesOutput(info, text) && !marked.has(at)) unmarked.push(`${file}:${markdown.slice(0, at).split('\n').length}`);
    }
  }
  return { quotes, unmarked };
}

let server: RunningServer;

/** What the code prints, with this machine's folders and ports written as the docs write them. */
function normalized(text: string, dir?: string): string {
  let out = text;
  for (const folder of [dir, process.cwd()]) if (folder) out = out.split(folder).join('DIR');
  return out.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT');
}

/**
 * Text with what differs from run to run written alike, on both sides of a comparison: durations
 * (`0.13 s`, `18 ms`), instants (ISO dates, a screenshot's time), ports.
 */
function steady(text: string): string {
  return normalized(text)
    .replace(/\b\d+(\.\d+)? (s|ms)\b/g, 'N $2')
    .replace(/-\d{13}\.png\b/g, '-TIME.png')
    .replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z\b/g, 'INSTANT');
}

/** `multiauth ...args` in-process, in a fresh folder holding `files`; stderr then stdout, normalized. */
async function cli(args: string[], files: Record<string, string>, env: Record<string, string> = {}, prepare?: (dir: string) => void, sub = ''): Promise<string> {
  const dir = writeFiles(files);
  prepare?.(dir);
  let stdout = '';
  let stderr = '';
  await main(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { PATH: process.env.PATH, MULTIAUTH_CACHE: 'off', MULTIAUTH_RETRIES: '0', ...env },
    cwd: join(dir, sub),
  });
  return normalized(`${stderr}${stdout}`, dir);
}

/** A user whose sign-in asks for a code, then waits a second for its mail (`mail` the top-level key, or ''). */
function EMAIL_USER(mail: string): string {
  return `${mail}procedures:
  - name: code-login
    operations:
      - tech: http
        parameters: { url: "${server.url}/auth/code", method: POST, body: { email: "{{email}}" } }
      - tech: email
        parameters: { to: "{{email}}", subject: "(?i)sign-in code", wait_for_seconds: 1 }
        extractions: [{ name: code, location: body, regex: "code: (\\\\d{6})" }]
users:
  - { name: alice, procedure: code-login, variables: [{ name: email, value: alice@example.test }] }
`;
}

/** A config of one generic user whose procedure `login` has `operation` as its one operation. */
function oneOperation(operation: string, injections = '[]'): string {
  return `procedures:\n  - name: login\n    operations:\n${operation}\n    injections: ${injections}\nusers:\n  - { name: alice, procedure: login, credentials: { username: alice, password: alice-password } }\n`;
}

/** Each message id the docs may quote, and how the code is made to print it. */
const PRODUCERS: Record<string, () => Promise<string>> = {
  'config-not-found': () => cli(['validate'], {}),
  // Run two folders below the config; the docs write the temporary folder as /repo.
  'config-not-found-above': async () => (await cli(['validate'], { 'multiauth.yaml': TOKEN_USERS, 'app/tests/.keep': '' }, {}, undefined, 'app/tests')).replaceAll('DIR', '/repo'),
  'config-syntax': () => cli(['validate', '-c', 'syntax.yaml'], {
    'syntax.yaml': 'users:\n  - name: alice\n    credentials: { username: alice,\npassword: x\n',
  }),
  // Sparse: the size is what the check reads; no 600 MiB are written.
  'config-limit': () => cli(['validate', '-c', 'big.yaml'], { 'big.yaml': '' }, {}, (dir) => truncateSync(join(dir, 'big.yaml'), 600 * 1024 * 1024)),
  // Issue 37: a mail step with no mail source.
  'email-without-mail': () => cli(['validate'], { 'multiauth.yaml': EMAIL_USER('') }),
  // The CLI starts its own sink (none listens); the start request mails nobody.
  'email-timeout': async () => cli(['login', 'alice'], { 'multiauth.yaml': EMAIL_USER(`mail: { smtp: { port: ${await freePort()}, api_port: ${await freePort()} } }\n`) }),
  'config-invalid': () => cli(['validate', '-c', 'invalid.yaml'], {
    'invalid.yaml': 'users:\n  - name: alice\n    credentials:\n      username: alice\n      password: 12345\n      pasword: x\n',
  }),
  'duplicate-key': () => cli(['validate', '-c', 'dup.yaml'], {
    'dup.yaml': 'users:\n  - name: alice\n    credentials:\n      username: alice\n      password: a\n      password: b\n',
  }),
  'json-syntax': () => cli(['validate', '-c', 'bad.json'], { 'bad.json': '{ "users": [ { "name": "alice" } } }\n' }),
  'config-env-missing': () => cli(['validate', '-c', 'env.yaml'], {
    'env.yaml': 'users:\n  - name: alice\n    credentials: { username: alice, password: "${ALICE_PASSWORD}" }\n',
  }),
  'config-env-typo': () => cli(['validate'], {
    'multiauth.yaml': 'users:\n  - name: alice\n    credentials: { username: alice, password: "${ALICE_PASWORD}" }\n',
  }, { ALICE_PASSWORD: 'alice-password' }),
  'har-invalid': () => cli(['draft', '--har', 'login.har'], { 'login.har': '{"log": {}}' }),
  // Twelve requests, the fifth a refused sign-in.
  'draft-no-sign-in': () => cli(['draft', '--har', 'login.har'], {
    'login.har': JSON.stringify({
      log: {
        entries: Array.from({ length: 12 }, (_, i) => ({
          request: i === 4
            ? { method: 'POST', url: 'https://app.example.test/login', headers: [], postData: { mimeType: 'application/x-www-form-urlencoded', text: 'username=alice&password=wrong-pw' } }
            : { method: 'GET', url: `https://app.example.test/page/${i}`, headers: [] },
          response: { status: i === 4 ? 401 : 200, headers: [] },
        })),
      },
    }),
  }),
  'types-not-ours': () => cli(['types'], { 'multiauth.yaml': TOKEN_USERS, 'multiauth.d.ts': 'export type Mine = 1;\n' }),
  'openapi-swagger2': () => cli(['matrix', '--from-openapi', 'api/swagger.yaml'], {
    'api/swagger.yaml': 'swagger: "2.0"\ninfo: { title: app, version: "1" }\npaths: {}\n',
  }),
  // The access example with two typos: a request and a user of access.expect.
  'access-expect-unknown': () => cli(['validate'], {
    'multiauth.yaml': accessExample().replace('erin: { list users: deny', 'erin: { list usrs: deny').replace('    bob: { read a published', '    eirn: { read a published'),
  }, { DEMO_URL: 'http://127.0.0.1:4010' }),
  'access-matrix-cli': async () => cli(['matrix'], { 'multiauth.yaml': brokenAccessExample() }, { DEMO_URL: (await demoServer()).url }),
  // The cell is the one the CLI observes (bob, export users); the error is the one accessMatrix()'s test throws with it.
  'access-unexpected': async () => {
    const url = (await demoServer()).url;
    const observed = JSON.parse(await cli(['matrix', '--json'], { 'multiauth.yaml': brokenAccessExample() }, { DEMO_URL: url })) as { cells: Record<string, Record<string, AccessCell>> };
    const plan = planFromYaml(brokenAccessExample(), { DEMO_URL: url });
    const request = plan.access?.requests.find((r) => r.name === 'export users');
    const cell = observed.cells.bob?.['export users'];
    if (!request || !cell) return `(no request or cell: ${JSON.stringify(observed.cells.bob)})`;
    return normalized(((await unexpectedCellError(plan, 'bob', request, cell, new Redactor())) as Error).message);
  },
  // The example's run (examples/access-replay): four requests per user, alice's replayed as bob and anonymous, bob's as anonymous; bob reads alice's order.
  'access-replay-line': async () => replaySummaryLine(replayReport(['alice', 'bob'].flatMap((owner) => ['/api/orders', '/api/orders/{id}', '/api/notices', '/whoami'].map((path): ReplayRow => {
    const finding = owner === 'alice' && path === '/api/orders/{id}';
    return { owner, method: 'GET', url: `http://127.0.0.1:4012${path}`, pattern: `GET http://127.0.0.1:4012${path}`, status: 200, findings: finding ? ['bob'] : [],
      replays: { ...(owner === 'alice' ? { bob: { verdict: finding ? 'same' : 'different' } } : {}), anonymous: { verdict: 'denied' } } };
  })), [])),
  'fixture-base-url': async () => baseUrlMismatch('http://localhost:4000', ['http://localhost:3000'], [], '/repo/multiauth.yaml') ?? '(no warning)',
  // signInAs's user whose page is asked for, with a browser that cannot start (the worker's launcher, a missing executable).
  'fixture-no-browser': async () => {
    const parts = {
      user: 'bob',
      browser: () => launchDiscovered(async () => undefined as never, { given: '/nonexistent/chromium', env: {}, chromium: true }),
      redactor: new Redactor(),
    } as unknown as BrowserParts;
    const bob = new LazySignedInUser('bob', {} as Session, {} as APIRequestContext, parts);
    const error = await bob.page.then(() => undefined, (e: unknown) => e);
    return error instanceof Error ? error.message : `(no error: ${String(error)})`;
  },
  // A spec written for the earlier signInAs, which opened the page in signInAs itself.
  'fixture-promised-page': async () => promisedPartMessage('page', 'goto'),
  'fixture-promised-context': async () => promisedPartMessage('context', 'cookies'),
  // A test of project "api-bob" (authProjects marks it bob's) whose file sets authUser alice.
  'run-summary-line': async () => {
    const at = Date.now();
    const event = (kind: RunEvent['kind'], user: string, ms: number, reason?: string): RunEvent => ({ kind, user, worker: 'worker 0', at, ms, ...(reason ? { reason } : {}) });
    const events = [event('signed-in', 'alice', 500), event('signed-in', 'bob', 740), event('cached', 'carol', 3), event('signed-in', 'dave', 0), event('re-signed-in', 'alice', 420, 'status 401')];
    return summaryLine(runTotals(events), 'test-results/multiauth-timeline.html');
  },
  'fixture-user-overridden': async () => {
    const info = { project: { name: 'api-bob', metadata: { [MATRIX_USER_KEY]: 'bob' } }, annotations: [], titlePath: ['roles.spec.ts'], file: '/repo/roles.spec.ts' } as unknown as TestInfo;
    const warn = console.warn;
    let warned = '';
    console.warn = (text: string) => (warned += text);
    try {
      warnOverriddenUser(info, 'alice', () => true);
    } finally {
      console.warn = warn;
    }
    return warned;
  },
  // A matrix of two users whose folder holds a spec that takes Playwright's own test.
  'plain-test-import': async () => {
    const dir = writeFiles({ 'tests/old.spec.ts': "import { test, expect } from '@playwright/test';\n" });
    let warned = '';
    warnPlainTestImports({ testDir: 'tests' }, dir, ['api-alice', 'api-bob'], {}, (text) => (warned += text));
    return warned;
  },
  // A matrix of two users told 2 workers, in a run of 4.
  'worker-share': async () => {
    const write = process.stderr.write;
    let warned = '';
    process.stderr.write = ((text: string) => ((warned += text), true)) as typeof process.stderr.write;
    try {
      warnWorkerShare({ metadata: { [MATRIX_USER_KEY]: 'alice' } }, 4, { [WORKER_SHARE_ENV]: JSON.stringify(shareWorkers(2, { argv: [], given: 2 })) }, () => true);
    } finally {
      process.stderr.write = write;
    }
    return warned;
  },
  'user-unknown': () => cli(['login', 'alcie'], {
    'multiauth.yaml': 'users:\n  - { name: alice, credentials: { username: alice, password: a } }\n  - { name: bob, credentials: { username: bob, password: b } }\n',
  }),
  'template-unknown-variable': () => cli(['login', 'alice'], {
    'multiauth.yaml': oneOperation(`      - tech: http\n        parameters: { url: "${server.url}/token", method: POST, body: { user: "{{usernme}}" } }`),
  }),
  'template-function-failed': () => cli(['login', 'tina'], {
    'multiauth.yaml': `procedures:\n  - name: login\n    operations:\n      - tech: http\n        parameters: { url: "${server.url}/token", method: POST, body: { otp: "{{ totp(totp_secret) }}" } }\n    injections: []\nusers:\n  - name: tina\n    procedure: login\n    variables: [{ name: totp_secret, value: "not-base32-s3cret!" }]\n`,
  }),
  'auth-passkey-webauthn-assertion': () => rendered(authenticate(planFromYaml(`procedures:
  - name: passkey
    operations:
      - tech: http
        parameters: { url: "${server.url}/verify", method: POST, body: "{{ webauthn_assertion(options) }}" }
    injections: []
users:
  - name: alice
    procedure: passkey
    variables: [{ name: options, value: '{"challenge":"Q0g","rpId":"app.example.com"}' }]
    passkey: { rp_id: staging.example.com, id: aWQ, user_handle: dQ, private_key: "\${KEY}", public_key: cHVi }
`, { KEY: 'a2V5' }), 'alice', { redactor: new Redactor() })),
  'curl-parse': () => cli(['validate', '-c', 'curlparse.yaml'], { 'curlparse.yaml': curlPreset("curl 'https://x.test/login") }),
  'curl-unsupported-option': () => cli(['validate', '-c', 'curlopt.yaml'], { 'curlopt.yaml': curlPreset('curl --retry 3 https://x.test/login') }),
  'curl-forbidden': () => cli(['validate', '-c', 'curlforbid.yaml'], { 'curlforbid.yaml': curlPreset('curl -d @file https://x.test/login') }),
  'browser-unknown-command': () => cli(['validate', '-c', 'browser.yaml'], {
    'browser.yaml': webdriverPreset('                - { id: c2, command: clickAndHold, target: "id=go" }\n'),
  }),
  // `validate` refuses an injection of a variable nothing extracts: the plan is changed after it, as
  // a procedure whose extraction is skipped at run time would leave it.
  'injection-variable-unset': async () => {
    const plan = planFromYaml(oneOperation(
      `      - tech: http\n        parameters: { url: "${server.url}/token", method: POST }\n        extractions: [{ name: access_token, location: body, key: access_token }]`,
      '[{ location: header, key: Authorization, prefix: Bearer, variable: access_token }]',
    ));
    (plan.procedures.login as PlanProcedure).operations[0]!.extractions = [];
    return rendered(authenticate(plan, 'alice', { redactor: new Redactor() }));
  },
  // `validate` refuses an invalid template: one is put into the plan after it, as a value reached only at run time would be.
  'template-invalid': async () => {
    const plan = planFromYaml(oneOperation(`      - tech: http\n        parameters: { url: "${server.url}/token", method: POST, body: { otp: "x" } }`));
    const op = (plan.procedures.login as PlanProcedure).operations[0] as PlanOperation & { tech: 'http' };
    op.request.body = { otp: '{{ totp() }}' };
    return rendered(authenticate(plan, 'alice', { redactor: new Redactor() }));
  },
  // A bug, provoked: an extraction of a location no config can name makes the step throw a TypeError.
  internal: async () => {
    const plan = planFromYaml(oneOperation(`      - tech: http\n        parameters: { url: "${server.url}/token", method: POST }`));
    const op = (plan.procedures.login as PlanProcedure).operations[0] as PlanOperation;
    op.extractions = [{ name: 'x', location: 'nowhere' as 'body', key: 'x', origin: [...op.origin, 'extractions', 0] }];
    return rendered(authenticate(plan, 'alice', { redactor: new Redactor() }));
  },
  'session-cache': async () => {
    const dir = writeFiles({ '.auth/keep': '' });
    const file = join(dir, '.auth', 'alice-3f2a9c1d0b7e4a55.json');
    let release!: () => void;
    const held = withFileLock(file, () => new Promise<void>((resolve) => (release = resolve)));
    await expect.poll(() => existsSync(`${file}.lock`)).toBe(true);
    const text = await rendered(withFileLock(file, async () => undefined, { waitMs: 300 }));
    release();
    await held;
    return normalized(text, dir);
  },
  'extraction-form-refused': () => cli(['login', 'alice'], {
    'multiauth.yaml': `procedures:\n  - name: form\n    operations:\n      - tech: http\n        parameters: { url: "${server.url}/admin/login/", method: POST, headers: [{ name: Content-Type, values: [application/x-www-form-urlencoded] }], body: "username={{username}}&password={{password}}" }\n        extractions: [{ name: session, location: cookie, key: sessionid }]\n    injections: [{ location: cookie, key: sessionid, variable: session }]\nusers:\n  - { name: alice, procedure: form, credentials: { username: alice, password: wrong-password } }\n`,
  }),
  'auth-validation': () => cli(['login', 'erin'], {
    'multiauth.yaml': `procedures:\n  - name: looks-fine\n    operations:\n      - tech: http\n        parameters: { url: "${server.url}/looks-fine", method: POST }\n    injections: []\nusers:\n  - name: erin\n    procedure: looks-fine\n    validation: { url: "${server.url}/whoami" }\n`,
  }),
  'auth-protocol': () => cli(['login', 'alice'], {
    'multiauth.yaml': `presets:\n  - type: graphql\n    url: ${server.url}/graphql\n    query: "mutation Login($username: String!, $password: String!) { login(username: $username, password: $password) { token } }"\n    users:\n      - { username: alice, variables: { username: alice, password: wrong } }\n`,
  }),
  'mail-no-sink': async () => rendered(openMailReader({ kind: 'smtp', host: '127.0.0.1', port: await freePort(), apiPort: await freePort() })),
  'mail-port-taken': async () => {
    const holder = await startHttpServer((_request, response) => response.end());
    try {
      return await rendered(startMailSink({ host: '127.0.0.1', port: Number(new URL(holder.url).port), apiPort: await freePort() }));
    } finally {
      await holder.close();
    }
  },
  'cli-usage': () => cli(['login', 'alice', '--browser-path', '/opt/chromium/chrome'], {
    'multiauth.yaml': webdriverPreset(''),
  }),
  'cli-check': () => cli(['check'], { 'multiauth.yaml': TOKEN_USERS }),
  'cli-login': () => cli(['login', 'alice'], { 'multiauth.yaml': TOKEN_USERS }),
  'cli-verbose': () => cli(['login', 'alice', '--verbose'], {
    'multiauth.yaml': `procedures:\n  - name: token-then-form\n    operations:\n`
      + `      - tech: http\n        parameters: { url: "${server.url}/auth/token?client=web", method: POST, body: { username: "{{username}}", password: "{{password}}" } }\n`
      + '        extractions: [{ name: token, location: body, key: access_token }]\n'
      + `      - tech: http\n        parameters: { url: "${server.url}/auth/form-login", method: POST, follow_redirects: 0 }\n`
      + '        extractions: [{ name: sid, location: cookie, key: sid }]\n'
      + '    injections:\n      - { location: header, key: Authorization, prefix: Bearer, variable: token }\n      - { location: cookie, key: sid, variable: sid }\n'
      + `users:\n  - name: alice\n    procedure: token-then-form\n    credentials: { username: alice, password: alice-password }\n    validation: { url: "${server.url}/whoami" }\n`,
  }),
  'oauth-refused': () => cli(['login', 'reporting-service'], {
    'multiauth.yaml': `presets:\n  - type: oauth_client_credentials\n    url: ${server.url}/oauth/token\n    users:\n`
      + '      - { username: reporting-service, client_id: reporting-service, client_secret: wrong-secret }\n',
  }),
  'curl-step-failed': () => cli(['login', 'alice'], {
    'multiauth.yaml': `presets:\n  - type: curl_sequence\n    requests:\n      - curl: curl -sS '${server.url}/auth/csrf'\n`
      + '        extractions: [{ name: csrf, location: body, key: csrf }]\n'
      + `      - curl: >-\n          curl '${server.url}/auth/login' -H 'X-CSRF-Token: {{csrf}}' -d 'username={{login}}&password={{password}}'\n`
      + '        extractions: [{ name: access_token, location: body, key: access_token }]\n'
      + '    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: access_token }]\n'
      + '    users:\n      - { username: alice, variables: { login: alice, password: alice-password } }\n',
  }),
  'browser-step-failed': async () => userError(await browserCheck(), 'alice'),
  'browser-loop-limit': async () => userError(await browserCheck(), 'bob'),
  'authorization-page-refused': async () => userError(await browserCheck(), 'carol'),
  'extraction-json-refused': () => cli(['login', 'alice'], {
    'multiauth.yaml': oneOperation(
      `      - tech: http\n        parameters: { url: "${server.url}/w/api.php?action=login&format=json", method: POST, body: "lgname={{username}}&lgpassword={{password}}", headers: [{ name: Content-Type, values: [application/x-www-form-urlencoded] }] }\n        extractions: [{ name: session, location: cookie, key: wikisession }]`,
      '[{ location: cookie, key: wikisession, variable: session }]',
    ),
  }),
  'html-403': () => cli(['login', 'alice'], {
    'multiauth.yaml': oneOperation(`      - tech: http\n        parameters: { url: "${server.url}/forbidden", method: POST }`),
  }),
  'digest-basic-only': () => cli(['login', 'alice'], { 'multiauth.yaml': digestPreset('basic-only') }),
  'digest-auth-int': () => cli(['login', 'alice'], { 'multiauth.yaml': digestPreset('auth-int') }),
  // validate in an environment with the cache on and no MULTIAUTH_CACHE_KEY: the warning, and the
  // error dave's sign-in would fail with (the same text).
  'passkey-unsealed': () => cli(['validate'], { 'multiauth.yaml': webdriverPreset('').replace('- username: alice\n', '- username: dave\n        passkey: register\n') }, { MULTIAUTH_CACHE: 'on' }),
  'failure-remembered': async () => {
    const path = failureFilePath(join(writeFiles({}), 'alice-1f2e3d4c5b6a7988.json'));
    writeFailure(path, 'run-1', new MultiAuthError('AUTH_HTTP_STATUS', 'the server answered HTTP 401 (Unauthorized)'), (text) => text);
    return readFailure(path, 'run-1')?.render() ?? '(nothing remembered)';
  },
};

let demo: Promise<DemoServer> | undefined;

/** The demo server, started by the first producer that needs it (the access matrix's routes). */
/** What a spec written for the earlier signInAs meets: `bob.page.goto` read on the promise of the page. */
function promisedPartMessage(part: 'page' | 'context', member: 'goto' | 'cookies'): string {
  const parts = { user: 'bob', browser: () => new Promise(() => undefined), redactor: new Redactor() } as unknown as BrowserParts;
  const bob = new LazySignedInUser('bob', {} as Session, {} as APIRequestContext, parts);
  try {
    void (bob[part] as unknown as Record<string, unknown>)[member];
    return '(no error)';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function demoServer(): Promise<DemoServer> {
  demo ??= startDemoServer();
  return demo;
}

/** examples/access-matrix's config. */
function accessExample(): string {
  return readFileSync(join(ROOT, 'examples', 'access-matrix', 'multiauth.yaml'), 'utf8');
}

/** The access example with one more request, the demo's route that forgets its admin check, denied to erin and bob. */
function brokenAccessExample(): string {
  return accessExample()
    .replace('    - name: delete a comment', '    - name: export users\n      url: ${DEMO_URL}/api/users/export\n    - name: delete a comment')
    .replace('erin: { list users: deny, "*": allow }', 'erin: { list users: deny, export users: deny, "*": allow }');
}

let browserRun: Promise<string> | undefined;

/**
 * One `multiauth check` of the users whose sign-in fails in a browser (one browser for the three,
 * side by side): alice's step finds no element, bob's loop asks for more rounds than a loop may run, carol's provider
 * sends the browser on to a page where nothing listens. The CLI saves screenshots under the
 * process's folder (the user's, when run as a command): they are removed once read.
 */
function browserCheck(): Promise<string> {
  browserRun ??= (async () => {
    const recorded = (user: string, commands: string): string => `      - username: ${user}\n        project:\n          tests:\n`
      + '            - id: t1\n              name: sign in\n              commands:\n' + commands;
    const text = await cli(['check', '--browser-path', CHROMIUM], {
      'multiauth.yaml': 'presets:\n  - type: webdriver\n    wait_for_seconds: 3\n    users:\n'
        + recorded('alice', '                - { id: c1, command: open, target: "data:text/html,<form><input id=user></form>" }\n'
          + '                - { id: c2, command: type, target: "id=username", value: "{{username}}" }\n')
        + recorded('bob', '                - { id: c1, command: open, target: "data:text/html,<p>flow</p>" }\n'
          + '                - { id: c2, command: times, target: "2000" }\n'
          + '                - { id: c3, command: store, target: "1", value: x }\n                - { id: c4, command: end, target: "" }\n')
        + `  - type: oauth_authz_code_browser\n    authorization_url: ${server.url}/authorize?to=${await freePort()}\n`
        + `    token_url: ${server.url}/oauth/token\n    client_id: demo-cli\n    redirect_uri: ${server.url}/callback\n    scopes: [openid]\n`
        + '    users:\n      - { username: carol, password: carol-password }\n',
    });
    for (const [, screenshot] of text.matchAll(/screenshot: DIR(\/test-results\/multiauth\/[\w.-]{1,200}\.png)/g)) {
      rmSync(join(process.cwd(), screenshot as string), { force: true });
    }
    return text;
  })();
  return browserRun;
}

/**
 * The error `check` printed for `user` on stderr: after its `USER:` line, up to a blank line or the
 * summary on stdout (its lines are cut to a width, so they change with the length of the folder).
 */
function userError(printed: string, user: string): string {
  const start = printed.indexOf(`${user}:\n`);
  return start === -1 ? printed : printed.slice(start + user.length + 2).split(/\n\n|\n(?=(?:FAIL|ok) {2})/)[0] as string;
}

/** A `digest` preset of one user, whose server answers with the challenge of route `challenge`. */
function digestPreset(challenge: string): string {
  return `presets:\n  - type: digest\n    first_request: { url: "${server.url}/digest/${challenge}", method: GET }\n    users:\n      - { username: alice, password: alice-password }\n`;
}

/** The text of the `MultiAuthError` that `work` rejects with. */
async function rendered(work: Promise<unknown>): Promise<string> {
  const error = await work.then(() => undefined, (e: unknown) => e);
  return error instanceof MultiAuthError ? normalized(error.render()) : `(no MultiAuthError: ${String(error)})`;
}

/** A `webdriver` preset whose one user opens a page, then runs `commands` (YAML lines). */
function webdriverPreset(commands: string): string {
  return 'presets:\n  - type: webdriver\n    users:\n      - username: alice\n        project:\n          tests:\n            - id: t1\n              name: sign in\n              commands:\n'
    + '                - { id: c1, command: open, target: "https://x.test/login" }\n' + commands;
}

/** A `curl` preset whose one user signs in with `command`. */
function curlPreset(command: string): string {
  return `presets:\n  - type: curl\n    extractions: [{ name: token, location: body, key: token }]\n    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: token }]\n    users:\n      - username: alice\n        curl: ${JSON.stringify(command)}\n`;
}

// The fault tests write these from errors of real servers (tests/faults/sign-in-faults.spec.ts);
// golden-docs.spec.ts checks that docs/errors.md quotes each whole.
for (const name of readdirSync(join(ROOT, 'tests', 'faults', 'golden')).filter((file) => file.endsWith('.txt'))) {
  PRODUCERS[`golden/${name.slice(0, -'.txt'.length)}`] = async () => readFileSync(join(ROOT, 'tests', 'faults', 'golden', name), 'utf8');
}

/** Users of a token endpoint (alice signs in, bob is refused) and one with static credentials. */
const TOKEN_USERS_TEMPLATE = (url: string): string => `presets:
  - type: http
    request: { url: "${url}/auth/token", method: POST, body: { username: "{{username}}", password: "{{password}}" } }
    extractions: [{ name: token, location: body, key: access_token }, { name: expires_in, location: body, key: expires_in }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: token }]
    validation: { url: "${url}/whoami" }
    users:
      - { username: alice, password: alice-password }
      - { username: bob, password: wrong-password }
users:
  - { name: robot, credentials: { headers: [{ name: X-Api-Key, values: [robot-key] }] } }
`;
let TOKEN_USERS = '';

/** A 403 page as Django sends one: its first kilobytes are CSS. */
const FORBIDDEN_PAGE = `<!DOCTYPE html><html lang="en"><head><title>403 Forbidden</title><style>${'html * { padding: 0; margin: 0; } '.repeat(80)}</style></head>`
  + '<body><div id="summary"><h1>Forbidden <span>(403)</span></h1><p>CSRF verification failed. Request aborted.</p></div></body></html>';

/** A form login that refuses a password as Django's admin does: 200 and the form again, with an error list. */
const LOGIN_PAGE = '<!DOCTYPE html><html><head><title>Log in</title><style>body { font-family: sans-serif }</style></head><body>'
  + '<h1>Log in</h1><form method="post" action="/admin/login/"><p class="errornote">Please enter the correct username and password</p>'
  + '<label>Username: <input name="username"></label><label>Password: <input type="password" name="password"></label>'
  + '<input type="submit" value="Log in"></form></body></html>';

test.beforeAll(async () => {
  server = await startHttpServer(async (req, res) => {
    const body = await readBody(req);
    if (req.url?.startsWith('/authorize?to=')) {
      const to = new URL(req.url, server.url).searchParams.get('to');
      res.writeHead(302, { location: `http://127.0.0.1:${to}/continue?code=code-of-alice&state=some-state` });
      return res.end();
    }
    if (req.url === '/oauth/token') return sendJson(res, 401, { error: 'invalid_client', error_description: 'client authentication failed' });
    if (req.url === '/auth/csrf') return sendJson(res, 200, { csrf: 'csrf-1' });
    if (req.url === '/auth/login') {
      const form = new URLSearchParams(body);
      return sendJson(res, 401, { error: 'invalid_credentials', received: { username: form.get('username'), password: form.get('password') } });
    }
    if (req.url === '/token') return sendJson(res, 200, { token_type: 'Bearer' });
    if (req.url?.startsWith('/auth/token')) {
      const refused = !body.includes('alice-password');
      return refused ? sendJson(res, 401, { error: 'invalid_grant' }) : sendJson(res, 200, { access_token: 'token-of-alice', expires_in: 3600 });
    }
    if (req.url === '/auth/form-login') {
      res.writeHead(302, { location: '/app', 'set-cookie': 'sid=sid-of-alice; Path=/; HttpOnly' });
      return res.end();
    }
    if (req.url === '/whoami' && req.headers.authorization) return sendJson(res, 200, { user: 'alice' });
    if (req.url === '/auth/code') return sendJson(res, 200, { sent: true });
    if (req.url === '/looks-fine') return sendJson(res, 200, { signedIn: false, user: null, code: null });
    if (req.url === '/whoami') return sendJson(res, 401, { error: 'unauthorized', message: 'no credentials', via: null });
    if (req.url === '/graphql' && body.includes('login')) {
      return sendJson(res, 200, { data: null, errors: [{ message: 'Invalid password', path: ['login'], extensions: { code: 'UNAUTHENTICATED' } }] });
    }
    if (req.url === '/digest/basic-only') {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="app"' });
      return res.end();
    }
    if (req.url === '/digest/auth-int') {
      res.writeHead(401, { 'www-authenticate': 'Digest realm="app", nonce="n1", algorithm=SHA-512-256, qop="auth-int"' });
      return res.end();
    }
    if (req.url?.startsWith('/w/api.php')) return sendJson(res, 200, { login: { result: 'Failed', reason: 'Incorrect username or password entered.\nPlease try again.' } });
    if (req.url === '/forbidden') {
      res.writeHead(403, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(FORBIDDEN_PAGE);
    }
    if (req.url === '/admin/login/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(LOGIN_PAGE);
    }
    return sendJson(res, 404, { error: 'not found' });
  });
  TOKEN_USERS = TOKEN_USERS_TEMPLATE(server.url);
});

test.afterAll(async () => {
  await server?.close();
  await (await demo)?.stop();
  removeTempDirs();
});

test('every quote of printed output in the shipped docs (a ```text block, or one that reads like an error) is marked', () => {
  expect(readQuotes().unmarked).toEqual([]);
});

test('every quoted message of the docs is what the code prints', async () => {
  const { quotes } = readQuotes();
  expect(quotes.length).toBeGreaterThanOrEqual(20);
  const unknown = quotes.filter((quote) => !PRODUCERS[quote.id]).map((quote) => `${quote.file}: ${quote.id}`);
  expect.soft(unknown, 'a marked quote whose id has no producer in this file').toEqual([]);
  // The browser sign-ins take longest: they start first, and the rest runs meanwhile.
  if (quotes.some((quote) => quote.id.startsWith('browser-') || quote.id === 'authorization-page-refused')) void browserCheck();
  const printed = new Map<string, string>();
  for (const quote of quotes) {
    if (!PRODUCERS[quote.id]) continue;
    if (!printed.has(quote.id)) {
      const started = performance.now();
      printed.set(quote.id, await (PRODUCERS[quote.id] as () => Promise<string>)());
      if (process.env.SHOW_MESSAGES) console.log(`#### ${quote.id} ${Math.round(performance.now() - started)} ms`);
    }
    if (process.env.SHOW_MESSAGES) console.log(`==== ${quote.id}\n${printed.get(quote.id)}`);
    expect.soft(steady(printed.get(quote.id) as string), `${quote.file}: the quote "${quote.id}"`).toContain(steady(quote.text));
  }
});
