import { test, expect } from '@playwright/test';
import { runMain } from '../support/cli-in-process.js';
import { writeTempConfig } from '../support/temp-files.js';
import { readBody, sendJson, startHttpServer, type RunningServer } from '../support/servers/node-http.js';

// Issue 23, item 9: what a template function derives from a secret (basic(), base64() of
// "user:password", a TOTP code) and a secret query value written inline in a URL were printed in
// clear when a server echoed them in an error answer. Each is a secret of the run.

/** What the server got, as it got it: the values the error output must not show. */
interface Received {
  basic: string;
  pair: string;
  nested: string;
  otp: string;
  url: string;
}

let server: RunningServer;
const received: Received[] = [];

test.beforeAll(async () => {
  server = await startHttpServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as { pair: string; nested: string; otp: string };
    const basic = String(req.headers['x-basic'] ?? '');
    received.push({ basic, pair: body.pair, nested: body.nested, otp: body.otp, url: req.url ?? '' });
    // A server that quotes the request in its error: first, so that the error's excerpt shows it.
    sendJson(res, 400, { echo: { basic, pair: body.pair, nested: body.nested, otp: body.otp, url: req.url }, error: 'invalid_request' });
  });
});

test.afterAll(async () => server.close());

test('values derived from secrets are masked when a server echoes them', async () => {
  const { file, remove } = writeTempConfig(`
procedures:
  - name: login
    operations:
      - tech: http
        parameters:
          url: "${server.url}/login?api_key=inline-key-7781&client_secret=inline%2Fsecret-42"
          method: POST
          headers: [{ name: X-Basic, values: ["{{ basic(username, password) }}"] }]
          body:
            pair: "{{ base64(username + ':' + password) }}"
            nested: "{{ base64url(base64(password)) }}"
            otp: "{{ totp(totp_secret) }}"
    injections: []
users:
  - name: alice
    procedure: login
    credentials: { username: alice, password: pw-derived-1 }
    variables: [{ name: totp_secret, value: GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ }]
`);
  try {
    for (const json of [[], ['--json']]) {
      received.length = 0;
      const run = await runMain(['login', 'alice', '-c', file, ...json]);
      expect(run.code, run.stderr).toBe(1);
      const output = run.stdout + run.stderr;
      expect(output).toContain('[AUTH_HTTP_STATUS]');
      expect(output).toContain('invalid_request');
      expect(received).toHaveLength(1);
      const got = received[0]!;
      const pair = Buffer.from('alice:pw-derived-1').toString('base64');
      expect(got.basic).toBe(`Basic ${pair}`);
      expect(got.pair).toBe(pair);
      expect(got.otp).toMatch(/^\d{6}$/);
      for (const value of [got.basic, pair, got.nested, got.otp, 'inline-key-7781', 'inline%2Fsecret-42', 'inline/secret-42', 'pw-derived-1']) {
        expect(output, value).not.toContain(value);
      }
      expect(output).toContain('********');
    }
  } finally {
    remove();
  }
});

test('a template function that refuses its argument is a config mistake: exit 2, located, no value', async () => {
  const { file, remove } = writeTempConfig(`
procedures:
  - name: login
    operations:
      - tech: http
        parameters: { url: "${server.url}/login", method: POST, body: { otp: "{{ totp(totp_secret) }}" } }
    injections: []
users:
  - name: tina
    procedure: login
    credentials: { username: tina, password: pw }
    variables: [{ name: totp_secret, value: "not-base32-s3cret!" }]
`);
  try {
    received.length = 0;
    const run = await runMain(['login', 'tina', '-c', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('procedures[0].operations[0].body.otp: totp(): the secret is not base32');
    expect(run.stderr).toContain('user "tina", procedure "login", step 1');
    expect(run.stderr).toContain('[TEMPLATE_FUNCTION_FAILED]');
    expect(run.stderr).not.toContain('not-base32-s3cret!');
    expect(received).toHaveLength(0);
  } finally {
    remove();
  }
});
