import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { MASK } from '../../src/core/redactor.js';
import { runMain } from '../support/cli-in-process.js';
import { ROOT } from '../support/root.js';
import { removeTempDirs, writeFiles } from '../support/temp-files.js';
import { test, expect } from '../support/demo.js';

/**
 * `multiauth login` signs the users of the curl and curl_sequence examples in, against the demo
 * server. The examples name `http://127.0.0.1:4010`; each test runs a copy pointing at its own demo
 * server instead, so that nothing depends on a fixed port.
 */

const EXAMPLE_URL = 'http://127.0.0.1:4010';

/** A copy of `examples/presets/<name>` in a new directory, as `multiauth.yaml`, with the demo's URL. */
function exampleCopy(name: string, demoUrl: string): string {
  const text = readFileSync(join(ROOT, 'examples', 'presets', name), 'utf8');
  expect(text).toContain(EXAMPLE_URL);
  return writeFiles({ 'multiauth.yaml': text.replaceAll(EXAMPLE_URL, demoUrl) });
}

/** What `/whoami` says about a request carrying the headers `login --json --reveal` printed. */
async function whoamiWith(demoUrl: string, headers: Record<string, string[]>): Promise<unknown> {
  const response = await request(`${demoUrl}/whoami`, { headers: Object.entries(headers).flatMap(([n, vs]) => vs.map((v) => [n, v])).flat() });
  return { status: response.statusCode, ...((await response.body.json()) as object) };
}

interface SessionJson {
  user: string;
  headers: Record<string, string[]>;
  expiresAt: number | null;
}

test.afterAll(removeTempDirs);

for (const [example, endpoints] of [
  ['curl.yaml', { 'POST /auth/body-login': 1 }],
  ['curl_sequence.yaml', { 'GET /auth/csrf': 1, 'POST /auth/csrf-login': 1 }],
] as const) {
  test(`multiauth login signs in the users of examples/presets/${example}`, async ({ demo }) => {
    const dir = exampleCopy(example, demo.url);
    for (const [user, role] of [['alice', 'admin'], ['bob', 'viewer']] as const) {
      demo.clear();
      const run = await runMain(['login', user, '--json', '--reveal'], { cwd: dir });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const session = JSON.parse(run.stdout) as SessionJson;
      expect(session.user).toBe(user);
      expect(session.headers.Authorization).toEqual([expect.stringMatching(/^Bearer eyJ[\w-]+\.[\w-]+\.[\w-]+$/)]);
      expect(demo.counters.endpoints).toEqual(endpoints);
      expect(demo.counters.signIns).toEqual({ [user]: 1 });
      expect(await whoamiWith(demo.url, session.headers)).toEqual({ status: 200, user, via: 'header', role });
    }

    demo.clear();
    const masked = await runMain(['login', 'bob'], { cwd: dir });
    expect(masked.code).toBe(0);
    expect(masked.stdout).toMatch(/^user: +bob$/m);
    expect(masked.stdout).toContain(`Authorization: Bearer ${MASK}`);
    expect(masked.stdout).not.toMatch(/eyJ[\w-]+\./);
    expect(masked.stdout + masked.stderr).not.toContain('bob-password');
  });
}

test('the curl_sequence example sends alice\'s per-user header at sign-in and after', async ({ demo }) => {
  const dir = exampleCopy('curl_sequence.yaml', `${demo.url}/rec`);
  demo.clear();
  const run = await runMain(['login', 'alice', '--json', '--reveal'], { cwd: dir });
  expect(run.code).toBe(0);
  const session = JSON.parse(run.stdout) as SessionJson;
  expect(session.headers['X-Tenant']).toEqual(['acme']);
  expect(demo.seen.map((s) => [`${s.method} ${s.path}`, s.headers['x-tenant']])).toEqual([
    ['GET /auth/csrf', 'acme'],
    ['POST /auth/csrf-login', 'acme'],
  ]);
});
