import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { STACK_FRAME } from '../support/cli.js';
import { runMain } from '../support/cli-in-process.js';
import { removeTempDirs, writeFiles } from '../support/temp-files.js';
import { test, expect } from '../support/demo.js';

/**
 * `multiauth validate` parses every curl command before anything is sent: a command that uses an
 * unsupported option, a forbidden one, or that cannot be parsed fails validation (exit 2) at the
 * file:line:col of the command. The demo server's counters prove that nothing was sent, by
 * `validate` nor by `login` on the same config.
 */

const CANARY = 'CANARY-9f2b7c41-never-read';

function brokenConfig(url: string, canary: string): string {
  return `# curl commands that validation must refuse
presets:
  - type: curl
    extractions: [{ name: token, location: body, key: token }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: token }]
    users:
      - username: alice
        curl: curl '${url}/auth/body-login' -d 'user=alice&pass=alice-password'
      - username: bob
        curl: >-
          curl '${url}/auth/body-login'
          --retry 3 -d 'user=bob&pass=bob-password'
  - type: curl_sequence
    requests:
      - extractions: [{ name: csrf, location: body, key: csrf }]
        curl: curl '${url}/auth/csrf' -d @${canary}
      - curl: "curl '${url}/auth/csrf-login -H 'X-CSRF-Token: {{csrf}}'"
    users:
      - username: carol
`;
}

/**
 * The 1-based line and column where `needle` starts in `text` (its first occurrence).
 *
 * @example
 * positionOf('a: 1\nb: 2\n', 'b:'); // { line: 2, column: 1 }
 */
function positionOf(text: string, needle: string): { line: number; column: number } {
  const at = text.indexOf(needle);
  if (at === -1) throw new Error(`${JSON.stringify(needle)} is not in the text`);
  const before = text.slice(0, at).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

test.afterAll(removeTempDirs);

test('unsupported, forbidden and unparsable commands fail validate with exit 2 at the command, nothing sent', async ({ demo }) => {
  demo.clear();
  const dir = writeFiles({ 'canary.txt': `${CANARY}\n` });
  const text = brokenConfig(demo.url, join(dir, 'canary.txt'));
  writeFiles({ 'multiauth.yaml': text }, dir);

  const run = await runMain(['validate'], { cwd: dir });
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr).not.toMatch(STACK_FRAME);
  expect(run.stderr).not.toContain(CANARY);

  const bob = positionOf(text, `curl: >-\n          curl '${demo.url}/auth/body-login'\n          --retry`);
  const fileRead = positionOf(text, `curl '${demo.url}/auth/csrf' -d @`);
  const unclosed = positionOf(text, `"curl '${demo.url}/auth/csrf-login`);
  const lines = run.stderr.split('\n').filter((line) => /^multiauth\.yaml:\d+:\d+ {2}/.test(line));
  expect(lines).toEqual([
    `multiauth.yaml:${bob.line}:${bob.column + 'curl: '.length}  presets[0].users[1].curl: curl command: option \`--retry\` is not supported [CURL_UNSUPPORTED_OPTION]`,
    expect.stringMatching(new RegExp(`^multiauth\\.yaml:${fileRead.line}:${fileRead.column}  presets\\[1\\]\\.requests\\[0\\]\\.curl: curl command: .*\`-d @file\`.* \\[CURL_FORBIDDEN\\]$`)),
    `multiauth.yaml:${unclosed.line}:${unclosed.column}  presets[1].requests[1].curl: curl command: a single quote (') is never closed [CURL_PARSE]`,
  ]);
  // The unsupported option's error lists what is supported.
  expect(run.stderr).toMatch(/^ {4}Supported options: URL, --url, -X\/--request, -H\/--header, .*--max-redirs/m);
  expect(run.stderr).toMatch(/^multiauth\.yaml: 3 errors$/m);
  expect(readFileSync(join(dir, 'canary.txt'), 'utf8')).toBe(`${CANARY}\n`);

  // login refuses the whole config too, even for alice whose own command is fine.
  const login = await runMain(['login', 'alice'], { cwd: dir });
  expect(login.code).toBe(2);
  expect(login.stderr).toContain('presets[0].users[1].curl: curl command: option `--retry` is not supported');
  expect(login.stdout).toBe('');

  expect(demo.counters.endpoints).toEqual({});
  expect(demo.counters.signIns).toEqual({});
});

test('the same config with the commands fixed validates, and then signs in', async ({ demo }) => {
  demo.clear();
  const dir = writeFiles({});
  const text = brokenConfig(demo.url, join(dir, 'canary.txt'))
    .replace('--retry 3 ', '')
    .replace(/ -d @\S+/, '')
    .replace(`/auth/csrf-login -H`, `/auth/csrf-login' -H`)
    .replace(`{{csrf}}'"`, `{{csrf}}' -d 'username=carol&password=carol-password'"`)
    .replace('      - username: carol\n', '      - username: carol\n    injections: [{ location: cookie, key: sid }]\n');
  writeFiles({ 'multiauth.yaml': text }, dir);

  const run = await runMain(['validate'], { cwd: dir });
  expect(run.stderr).toBe('');
  expect(run.stdout).toBe('multiauth.yaml: 3 users, 3 procedures OK\n');
  expect(run.code).toBe(0);
  expect(demo.counters.endpoints).toEqual({});

  const bob = await runMain(['login', 'bob', '--json'], { cwd: dir });
  expect(bob.stderr).toBe('');
  expect(bob.code).toBe(0);
  expect(demo.counters.signIns).toEqual({ bob: 1 });
});
