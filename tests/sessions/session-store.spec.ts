import { test, expect } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { readdirSync, statSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { SessionStore, sessionFilePath } from '../../src/sessions/index.js';
import { MultiAuthError } from '../../src/core/errors.js';
import { makeSession } from './support/make-session.js';
import { removeTempDirs, tempDir } from '../support/temp-files.js';

// Plain JavaScript on the built dist/: a child through tsx spent ~1 CPU-s compiling src/ first.
const child = join(import.meta.dirname, 'support', 'store-child.mjs');

test.afterAll(() => removeTempDirs());

/** A sign-in server that counts calls and hands out numbered tokens. */
async function startCounter(): Promise<{ url: string; counts: Record<string, number>; close(): Promise<void> }> {
  const counts: Record<string, number> = {};
  const server: Server = createServer((req, res) => {
    const kind = req.url!.split('/')[1]!;
    counts[kind] = (counts[kind] ?? 0) + 1;
    res.end(`${kind}-${counts[kind]}`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, counts, close: () => new Promise((r) => server.close(() => r())) };
}

function run(args: string[]): { proc: ChildProcess; done: Promise<{ code: number | null; out: string }> } {
  const proc = spawn(process.execPath, [child, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const done = new Promise<{ code: number | null; out: string }>((r) => proc.on('close', (code) => r({ code, out })));
  return { proc, done };
}

test.describe('SessionStore across processes', () => {
  let counter: Awaited<ReturnType<typeof startCounter>>;
  let dir: string;
  test.beforeEach(async () => {
    counter = await startCounter();
    dir = tempDir();
  });
  test.afterEach(async () => counter.close());

  test('eight processes asking at once sign the user in once', async () => {
    const runs = Array.from({ length: 8 }, () => run([dir, 'cfg', 'alice', counter.url, '300']));
    const results = await Promise.all(runs.map((r) => r.done));
    expect(results.map((r) => r.code)).toEqual(Array(8).fill(0));
    expect(counter.counts).toEqual({ signin: 1 });
    const parsed = results.map((r) => JSON.parse(r.out));
    expect(parsed.filter((p) => p.source === 'fresh')).toHaveLength(1);
    expect(parsed.filter((p) => p.source === 'cached')).toHaveLength(7);
    expect(new Set(parsed.map((p) => p.token))).toEqual(new Set(['signin-1']));
  });

  test('cache files are 0600 in a 0700 directory that ignores itself in git', async () => {
    expect((await run([dir, 'cfg', 'bob', counter.url]).done).code).toBe(0);
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files).toHaveLength(1);
    expect(statSync(join(dir, files[0]!)).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toMatch(/^\*$/m);
  });

  test('a later run reuses a valid session; another config does not', async () => {
    await run([dir, 'cfg', 'alice', counter.url]).done;
    const again = await run([dir, 'cfg', 'alice', counter.url]).done;
    expect(JSON.parse(again.out).source).toBe('cached');
    expect(counter.counts.signin).toBe(1);
    const other = await run([dir, 'cfg-edited', 'alice', counter.url]).done;
    expect(JSON.parse(other.out).source).toBe('fresh');
    expect(counter.counts.signin).toBe(2);
  });

  test('an expiring session is refreshed once for eight processes', async () => {
    // A 1 s session, then past its end: every reader wants a refresh.
    await run([dir, 'cfg', 'alice', counter.url, '0', '1000']).done;
    await new Promise((r) => setTimeout(r, 1_100));
    const runs = Array.from({ length: 8 }, () => run([dir, 'cfg', 'alice', counter.url, '200', '600000']));
    const results = (await Promise.all(runs.map((r) => r.done))).map((r) => JSON.parse(r.out));
    expect(counter.counts).toEqual({ signin: 1, refresh: 1 });
    expect(results.filter((r) => r.source === 'refreshed')).toHaveLength(1);
    expect(new Set(results.map((r) => r.token))).toEqual(new Set(['refresh-1']));
  });

  test('a worker killed while holding the lock does not hang the others', async () => {
    const victim = run([dir, 'cfg', 'alice', counter.url, '60000']);
    // The victim is a fresh Node process that must start, take the lock and reach the server: under
    // a loaded CI machine that alone can take longer than expect.poll's default 5 s.
    await expect.poll(() => counter.counts.signin ?? 0, { timeout: 30_000 }).toBe(1);
    victim.proc.kill('SIGKILL');
    await victim.done;
    const started = Date.now();
    const survivor = await run([dir, 'cfg', 'alice', counter.url]).done;
    expect(survivor.code).toBe(0);
    expect(JSON.parse(survivor.out)).toEqual({ source: 'fresh', token: 'signin-2' });
    // staleMs is 2 s in the child: recovery takes about that, far from the 30 s wait limit.
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  test('a corrupted or truncated cache file is replaced, not fatal', async () => {
    const file = sessionFilePath(dir, 'cfg', 'alice');
    for (const garbage of ['{"format":1,"key":"cfg","session":{"user":', 'not json at all', '']) {
      writeFileSync(file, garbage, { mode: 0o600 });
      const result = await run([dir, 'cfg', 'alice', counter.url]).done;
      expect(result.code).toBe(0);
      expect(JSON.parse(result.out).source).toBe('fresh');
    }
    expect(counter.counts.signin).toBe(3);
    expect(JSON.parse(readFileSync(file, 'utf8')).session.user).toBe('alice');
  });
});

test.describe('SessionStore within one process', () => {
  test('concurrent gets share one sign-in and later gets hit the memo', async () => {
    let signIns = 0;
    const store = new SessionStore(
      { dir: tempDir(), scopeKey: 'k', persist: false },
      {
        signIn: async (u) => (signIns++, makeSession(u, 't', null)),
        refresh: async () => {
          throw new Error('not expected');
        },
      },
    );
    expect(store.held('alice')).toBeUndefined();
    const [a, b] = await Promise.all([store.get('alice'), store.get('alice')]);
    expect(a.session).toBe(b.session);
    // What the next get answers from memory, known without waiting (no report step for it).
    expect(store.held('alice')).toBe(a.session);
    expect((await store.get('alice')).source).toBe('memo');
    expect(signIns).toBe(1);
  });

  test('a session close to expiry is not held: the next get refreshes it', async () => {
    let now = 1_000_000;
    const store = new SessionStore(
      { dir: tempDir(), scopeKey: 'k', persist: false, now: () => now },
      {
        signIn: async (u) => makeSession(u, 't', now + 120_000, now),
        refresh: async (s) => ({ ...s, createdAt: now, expiresAt: now + 120_000 }),
      },
    );
    const first = (await store.get('alice')).session;
    expect(store.held('alice')).toBe(first);
    now += 119_000;
    expect(store.held('alice')).toBeUndefined();
    expect((await store.get('alice')).source).toBe('refreshed');
  });

  test('persist: false writes no file', async () => {
    const dir = tempDir();
    const store = new SessionStore({ dir, scopeKey: 'k', persist: false }, {
      signIn: async (u) => makeSession(u, 't', null),
      refresh: async (s) => s,
    });
    await store.get('alice');
    expect(existsSync(sessionFilePath(dir, 'k', 'alice'))).toBe(false);
  });
});

test('a failed sign-in is tried once per run: the same store and another of the run fail at once; another run tries again', async () => {
  const dir = tempDir();
  let attempts = 0;
  const provider = {
    signIn: async () => {
      attempts++;
      throw new MultiAuthError('AUTH_HTTP_STATUS', 'the server answered HTTP 401 for pw-s3cret-1', { context: { user: 'alice', status: 401 }, hint: 'Check the password.' });
    },
    refresh: async () => makeSession('alice', 'never', null),
  };
  const options = { dir, scopeKey: 'cfg', run: 'run-1', redact: (t: string) => t.replaceAll('pw-s3cret-1', '********') };
  const first = new SessionStore(options, provider);
  await expect(first.get('alice')).rejects.toThrow(/HTTP 401/);
  await expect(first.get('alice')).rejects.toThrow(/HTTP 401/);

  const file = `${sessionFilePath(dir, 'cfg', 'alice')}.failed`;
  expect(statSync(file).mode & 0o777).toBe(0o600);
  expect(readFileSync(file, 'utf8')).not.toContain('pw-s3cret-1');
  const other = await new SessionStore(options, provider).get('alice').catch((e: unknown) => e);
  expect(other).toBeInstanceOf(MultiAuthError);
  expect(other).toMatchObject({ code: 'AUTH_HTTP_STATUS', hint: 'Check the password.', context: { user: 'alice', status: 401 } });
  expect((other as MultiAuthError).details.join('\n')).toContain('failed earlier in this run');
  expect(attempts).toBe(1);

  await expect(new SessionStore({ ...options, run: 'run-2' }, provider).get('alice')).rejects.toThrow(/HTTP 401/);
  expect(attempts).toBe(2);
});
