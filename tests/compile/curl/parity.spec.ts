import { test, expect } from '@playwright/test';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RequestTemplate } from '../../../src/compile/plan.js';
import { parseCurl } from '../../../src/compile/curl/index.js';
import { appendQuery } from '../../../src/runtime/session/merge.js';
import { readBody, selfSignedCertificate, startHttpServer, startHttpsServer, type RunningServer } from '../../support/servers/node-http.js';
import { goldenCases } from './golden.js';

/**
 * Differential test: each command runs through bash and the real curl of the machine against local
 * servers (every host mapped to them with --connect-to) and through parseCurl; the request curl
 * sent must be the one the template describes: method, path, query, headers (in order) and body.
 * curl's own defaults (`User-Agent: curl/x`, `Accept: *\/*`, Host, Content-Length) are not in
 * templates by design, and `--compressed` omits zstd (docs/curl.md), so those are normalised.
 */

const run = promisify(execFile);

interface Captured {
  method: string;
  target: string;
  headers: Array<[string, string]>;
  body: string;
}

const captured: Captured[] = [];
let http: RunningServer;
let https: RunningServer;
let cwd: string;

test.beforeAll(async () => {
  const record = async (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    const headers: Array<[string, string]> = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string]);
    captured.push({ method: req.method ?? '', target: req.url ?? '', headers, body: await readBody(req) });
    res.end('ok');
  };
  http = await startHttpServer((req, res) => void record(req, res));
  https = await startHttpsServer(selfSignedCertificate(), (req, res) => void record(req, res));
  cwd = mkdtempSync(join(tmpdir(), 'multiauth-curl-parity-'));
});

test.afterAll(async () => {
  await http.close();
  await https.close();
  rmSync(cwd, { recursive: true, force: true });
});

async function sendWithRealCurl(command: string): Promise<Captured> {
  const port = (server: RunningServer) => new URL(server.url).port;
  const prefix = `curl -s -o /dev/null -k --connect-to :443:127.0.0.1:${port(https)} --connect-to ::127.0.0.1:${port(http)}`;
  const before = captured.length;
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8' };
  await run('bash', ['--norc', '--noprofile', '-c', command.replace(/^curl\b/m, prefix)], { cwd, env });
  expect(captured.length, 'real curl sent exactly one request').toBe(before + 1);
  return captured[captured.length - 1] as Captured;
}

function pairs(search: string): Array<[string, string]> {
  return [...new URLSearchParams(search)];
}

function expectSameRequest(sent: Captured, template: RequestTemplate): void {
  expect(sent.method).toBe(template.method);
  const target = new URL(sent.target, 'http://x');
  const ours = new URL(appendQuery(template.url, template.query));
  expect(target.pathname).toBe(ours.pathname);
  expect(pairs(target.search)).toEqual(pairs(ours.search));

  const expectedHeaders = template.headers.flatMap(({ name, values }) => values.map((value): [string, string] => [name, value]));
  const has = (name: string) => expectedHeaders.some(([n]) => n.toLowerCase() === name);
  const sentHeaders = sent.headers
    .filter(([name]) => !['host', 'content-length'].includes(name.toLowerCase()))
    .filter(([name, value]) => !(name === 'User-Agent' && value.startsWith('curl/') && !has('user-agent')))
    .filter(([name, value]) => !(name === 'Accept' && value === '*/*' && !has('accept')))
    .map(([name, value]): [string, string] =>
      name === 'Accept-Encoding' && value === 'deflate, gzip, br, zstd' ? [name, 'deflate, gzip, br'] : [name, value]);
  expect(sentHeaders).toEqual(expectedHeaders);
  expect(sent.body).toBe(typeof template.body === 'string' ? template.body : '');
}

const runnable = goldenCases().filter(({ command }) => !command.includes('{{') && !command.includes('^') && !/\s-x\s/.test(command));

test('most of the golden corpus can be replayed with real curl', () => {
  expect(runnable.length).toBeGreaterThanOrEqual(35);
});

for (const { name, command } of runnable) {
  test(`real curl sends what golden ${name} describes`, async () => {
    expectSameRequest(await sendWithRealCurl(command), parseCurl(command));
  });
}

/** Tricky cases of curl's rules; `URL` is the local HTTP server. */
const TRICKY: Record<string, string> = {
  'several -b joined with ;': `curl URL/a -b 'a=1' -b 'b=2; c=3'`,
  '--data-urlencode character set': `curl URL/e --data-urlencode $'k=a~b*c-d._e!f(g)h\\'i/j:k@l \\u00e9+=%'`,
  '-G appends to an existing query': `curl 'URL/g?x=1' -G -d a=1 --data-urlencode 'c=x y' -d flag`,
  '--json then -d: & only before -d': `curl URL/j --json '{"a":1}' -d 'x=1' --json '{"b":2}'`,
  'custom headers replace and remove curl headers': `curl URL/h -A myua -e 'http://ref;auto' -u bob:pw -H 'X-A: 1' -d x -H 'Content-Type:'`,
  '-X GET keeps the body, -H User-Agent beats -A': `curl URL/h2 -H 'X-Empty;' -H 'User-Agent: custom' -A other -X GET -d body`,
  '--oauth2-bearer wins over -u': `curl URL/u -u alice:s3cret --oauth2-bearer tok`,
  'Accept: removal then a custom Accept with --json': `curl URL/h3 -H 'Accept:' --json '{}' -H 'Accept: text/plain'`,
  '-H Cookie beats -b': `curl URL/c -b 'a=1' -H 'Cookie: z=9'`,
  '-G with -X POST': `curl URL/gp -G -X POST -d a=1`,
  'empty -d is an empty POST': `curl URL/d0 -d ''`,
  'data options joined, --data-raw keeps @': `curl URL/raw --data-raw '@x' --data-binary 'b' --data-ascii 'c'`,
  '--compressed before custom headers': `curl URL/z --compressed -H 'X-B: 2' -e ';auto'`,
  '-G with --json': `curl URL/ge -G --json '{"a":1}'`,
  'short groups with values': `curl -sSXPUT URL/short -HX-Short:1 -dx=1`,
  'ANSI-C, continuation and a comment': `curl URL/ansi \\\n  --data-raw $'a\\tb\\nc\\x41\\u00e9' # trailing comment`,
  'user and password in the URL': `curl http://u%40x:p%3Aw@HOSTPORT/ui`,
  '--no-flags and timeouts do not change the request': `curl -L --no-location -k -m 1.2 --connect-timeout 1 --max-redirs 2 URL/n`,
};

for (const [title, template] of Object.entries(TRICKY)) {
  test(`real curl agrees: ${title}`, async () => {
    const command = template.replaceAll('URL', http.url).replaceAll('HOSTPORT', new URL(http.url).host);
    expectSameRequest(await sendWithRealCurl(command), parseCurl(command));
  });
}
