import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { parse as parseYaml, stringify } from 'yaml';
import { parseConfig } from '../src/config/index.js';
import type { AuthConfig } from '../src/config/index.js';
import { median, round, type BenchResult } from './stats.js';


const USERS = 1_000;
const RUNS = 15;

/**
 * A config of {@link USERS} users: every preset type plus generic users on shared procedures,
 * with `${ENV}` references, as a large team would write it.
 *
 * @example
 * parseConfig(generateConfig(100), 'bench.yaml', { env: { BENCH_PASSWORD: 'x', BENCH_SECRET: 'y' } });
 */
export function generateConfig(users = USERS): string {
  const url = 'https://idp.example.test/oauth/token';
  const extraction = { location: 'body', key: 'access_token', name: 'token' };
  const injection = { location: 'header', key: 'Authorization', prefix: 'Bearer', variable: 'token' };
  const share = (part: number) => Math.floor(users * part);
  const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);
  const project = (user: string) => ({
    tests: [{ id: 't', name: 'sign in', commands: [
      { id: 'c1', command: 'open', target: 'https://app.example.test/login' },
      { id: 'c2', command: 'type', target: 'id=user', value: user },
      { id: 'c3', command: 'type', target: 'id=pass', value: '{{password}}' },
      { id: 'c4', command: 'click', target: 'css=button[type=submit]' },
    ] }],
  });
  const procedures = Array.from({ length: 20 }, (_, i) => ({
    name: `login-${i}`,
    operations: [{
      tech: 'http',
      parameters: {
        url: `https://api${i}.example.test/login`, method: 'POST',
        headers: [{ name: 'Content-Type', values: ['application/json'] }],
        body: { user: '{{username}}', password: '{{password}}' },
      },
      extractions: [extraction],
    }],
    injections: [injection],
  }));
  const config: AuthConfig | Record<string, unknown> = {
    presets: [
      { type: 'basic', users: names('basic', share(0.2)).map((u) => ({ username: u, password: '${BENCH_PASSWORD}' })) },
      { type: 'headers', users: names('headers', share(0.1)).map((u) => ({ username: u, headers: { 'X-Api-Key': `${u}-key` } })) },
      { type: 'oauth_userpass', url, client_id: 'web', client_secret: '${BENCH_SECRET}', users: names('ropc', share(0.1)).map((u) => ({ username: u, password: 'pw', scopes: 'openid profile' })) },
      { type: 'http', request: { url, method: 'POST', body: { u: '{{username}}', p: '{{password}}' } }, users: names('http', share(0.1)).map((u) => ({ username: u, password: 'pw' })), extractions: [extraction], injections: [injection] },
      { type: 'curl', users: names('curl', share(0.1)).map((u) => ({ username: u, curl: `curl -X POST ${url} -d 'username=${u}&password=pw'` })), extractions: [extraction], injections: [injection] },
      { type: 'webdriver', users: names('browser', share(0.05)).map((u) => ({ username: u, project: project(u) })), extractions: [{ location: 'cookie', key: 'sid', name: 'sid' }] },
      { type: 'graphql', url: 'https://api.example.test/graphql', query: 'mutation($u: String!, $p: String!) { login(u: $u, p: $p) { token } }', users: names('gql', share(0.05)).map((u) => ({ username: u, variables: { u, p: 'pw' } })) },
    ],
    procedures,
    users: names('user', users - share(0.2) - share(0.1) * 4 - share(0.05) * 2).map((u, i) => ({
      name: u, procedure: `login-${i % 20}`,
      credentials: { username: u, password: '${BENCH_PASSWORD}' },
      variables: [{ name: 'tenant', value: `t${i % 7}` }],
    })),
  };
  return stringify(config);
}


function time(run: () => unknown, runs = RUNS): number {
  for (let i = 0; i < 2; i++) run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return median(times);
}

/**
 * Loading and validating (and compiling, when `src/compile` exports `compile`) a 1,000-user config,
 * against `yaml.parse` of the same text alone.
 *
 * @example
 * const { ratio } = await benchConfigLoad(); // aim: under 3
 */
export async function benchConfigLoad(): Promise<BenchResult> {
  const text = generateConfig();
  const env = { BENCH_PASSWORD: 'bench-password', BENCH_SECRET: 'bench-secret' };
  const compile = await loadCompile();
  const ours = time(() => {
    const loaded = parseConfig(text, 'multiauth.yaml', { env });
    if (loaded.config.presets.length === 0) throw new Error('bench config did not load');
    compile?.(loaded.config);
  });
  const peer = time(() => parseYaml(text));
  return {
    name: compile ? 'config load+validate+compile (1,000 users)' : 'config load+validate (1,000 users)',
    ours: round(ours), peer: round(peer), unit: 'ms', ratio: round(ours / peer), aim: 3,
  };
}

/**
 * Loading and validating a 10,000-user config against `yaml.parse` of the same text: the load stays
 * linear however large the config (no quadratic duplicate-key check, no repeated walks); the aim is
 * about the time `yaml.parse` takes, twice.
 *
 * @example
 * const { ratio } = await benchConfigLoadLarge(); // aim: at most 2
 */
export async function benchConfigLoadLarge(): Promise<BenchResult> {
  const text = generateConfig(10_000);
  const env = { BENCH_PASSWORD: 'bench-password', BENCH_SECRET: 'bench-secret' };
  const ours = time(() => {
    if (parseConfig(text, 'multiauth.yaml', { env }).config.presets.length === 0) throw new Error('bench config did not load');
  }, 5);
  const peer = time(() => parseYaml(text), 5);
  return { name: 'config load+validate (10,000 users)', ours: round(ours), peer: round(peer), unit: 'ms', ratio: round(ours / peer), aim: 2 };
}

async function loadCompile(): Promise<((config: AuthConfig) => unknown) | undefined> {
  try {
    const module = (await import('../src/compile/index.js' as string)) as { compile?: (config: AuthConfig) => unknown };
    return typeof module.compile === 'function' ? module.compile : undefined;
  } catch {
    return undefined;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await benchConfigLoad();
  console.log('name ours peer ratio');
  console.log(`${result.name} ${result.ours}${result.unit} ${result.peer}${result.unit} ${result.ratio} (aim < ${result.aim})`);
}
