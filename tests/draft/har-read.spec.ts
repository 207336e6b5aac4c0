import { test, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, ftruncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main, type CliIo } from '../../src/cli/main.js';
import { HAR_LIMITS, draftFromHar, parseHar, readHarFile } from '../../src/draft/index.js';
import { thrown } from '../support/errors.js';
import { removeTempDirs, tempDir } from '../support/temp-files.js';
import { STACK_FRAME } from '../support/cli.js';

// Issue 27, item 3: a HAR is untrusted input, like a config. Whatever it holds, the drafter
// answers with a clear error (HAR_INVALID, HAR_LIMIT, DRAFT_NO_SIGN_IN) within a bound.

test.afterAll(removeTempDirs);

function entry(url: string, extra: { status?: number; body?: string; headers?: Array<{ name: string; value: string }> } = {}) {
  return {
    request: { method: extra.body ? 'POST' : 'GET', url, headers: extra.headers ?? [], ...(extra.body && { postData: { mimeType: 'application/json', text: extra.body } }) },
    response: { status: extra.status ?? 200, headers: [], content: { mimeType: 'application/json', text: '{}' } },
  };
}

const bounded = async <T>(work: () => T | Promise<T>): Promise<T> => {
  const started = performance.now();
  const result = await work();
  expect(performance.now() - started).toBeLessThan(3000);
  return result;
};

test('not JSON, the wrong shape, a __proto__ key: HAR_INVALID naming what is wrong', async () => {
  expect(thrown(() => parseHar('<html>not a har</html>', 'x.har'))).toMatchObject({ code: 'HAR_INVALID', message: expect.stringMatching(/^x\.har: not a HAR \(not JSON: /) });
  expect(thrown(() => parseHar('{"log": {}}', 'x.har'))).toMatchObject({ code: 'HAR_INVALID', message: 'x.har: not a HAR: log.entries: Invalid input: expected array, received undefined' });
  expect(thrown(() => parseHar('{"log": {"entries": [{"request": {"method": "GET", "url": 7, "headers": []}, "response": {"status": 200, "headers": []}}]}}', 'x.har')).message).toBe(
    'x.har: not a HAR: log.entries[0].request.url: Invalid input: expected string, received number',
  );
  const proto = thrown(() => parseHar('{"log": {"entries": [], "__proto__": {"polluted": true}}}', 'x.har'));
  expect(proto).toMatchObject({ code: 'HAR_INVALID', message: 'x.har: the key "__proto__" is not allowed in a HAR' });
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(proto.hint).toContain('--save-har');
});

test('too deep, too many entries, too many headers, too large, not a regular file: HAR_LIMIT within a bound', async () => {
  const deep = await bounded(() => thrown(() => parseHar(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`, 'deep.har')));
  expect(deep).toMatchObject({ code: 'HAR_LIMIT', message: `deep.har: nested more than ${HAR_LIMITS.depth} levels deep` });

  const many = JSON.stringify({ log: { entries: Array.from({ length: HAR_LIMITS.entries + 1 }, () => entry('http://a.test/')) } });
  expect(await bounded(() => thrown(() => parseHar(many, 'many.har')))).toMatchObject({ code: 'HAR_LIMIT', message: `many.har: ${HAR_LIMITS.entries + 1} entries, more than ${HAR_LIMITS.entries}` });

  const headers = Array.from({ length: HAR_LIMITS.pairs + 1 }, (_, i) => ({ name: `x-${i}`, value: 'v' }));
  const wide = JSON.stringify({ log: { entries: [entry('http://a.test/', { headers })] } });
  expect(thrown(() => parseHar(wide, 'wide.har')).message).toBe(`wide.har: log.entries[0] has more than ${HAR_LIMITS.pairs} headers, cookies or parameters`);

  const dir = tempDir();
  const big = join(dir, 'big.har');
  const fd = openSync(big, 'w');
  ftruncateSync(fd, HAR_LIMITS.fileBytes + 1);
  closeSync(fd);
  expect(await bounded(() => thrown(() => readHarFile(big, 'big.har')))).toMatchObject({ code: 'HAR_LIMIT', message: 'big.har: it is too large (more than 50 MiB)' });

  const fifo = join(dir, 'fifo.har');
  execFileSync('mkfifo', [fifo]);
  expect(await bounded(() => thrown(() => readHarFile(fifo, 'fifo.har')))).toMatchObject({ code: 'HAR_LIMIT', message: 'fifo.har: it is not a regular file (a FIFO, a device or a socket)' });
  expect(thrown(() => readHarFile(join(dir, 'none.har'), 'none.har'))).toMatchObject({ code: 'HAR_INVALID', message: 'none.har: no such file' });
});

test('hostile bodies are read as text: deeply nested and __proto__ JSON never parsed, huge bodies cut; no sign-in is DRAFT_NO_SIGN_IN', async () => {
  const nested = `${'{"a":'.repeat(30)}1${'}'.repeat(30)}`;
  const har = JSON.stringify({
    log: {
      entries: [
        entry('http://a.test/x', { body: '{"__proto__": {"password": "p"}, "constructor": 1}' }),
        entry('http://a.test/y', { body: `{"deep": ${nested}}` }),
        { ...entry('http://a.test/z'), response: { status: 200, headers: [], content: { text: 'A'.repeat(HAR_LIMITS.bodyChars * 3) } } },
        entry('data:text/plain,hello'),
      ],
    },
  });
  const error = await bounded(() => thrown(() => draftFromHar(parseHar(har, 'h.har'), { source: 'h.har' })));
  expect(error).toMatchObject({ code: 'DRAFT_NO_SIGN_IN', message: 'h.har: no sign-in found in 3 recorded requests' });
  expect(({} as Record<string, unknown>).password).toBeUndefined();
});

test('a refused sign-in is named; a sign-in with nothing after it is said so', () => {
  const refused = JSON.stringify({ log: { entries: [entry('http://a.test/login?next=%2Fhome', { body: '{"username":"u","password":"pw-77aa"}', status: 401 }), entry('http://a.test/me')] } });
  const error = thrown(() => draftFromHar(parseHar(refused, 'r.har'), { source: 'r.har' }));
  expect(error.message).toBe('r.har: no sign-in found in 2 recorded requests (the server refused the attempt at entry 0, POST http://a.test/login?next=… with HTTP 401)');
  const alone = JSON.stringify({ log: { entries: [entry('http://a.test/login', { body: '{"username":"u","password":"pw-77aa"}' })] } });
  expect(thrown(() => draftFromHar(parseHar(alone, 'a.har'), { source: 'a.har' })).message).toBe('a.har: nothing was recorded after the sign-in at entry 0, POST http://a.test/login');
});

test('the CLI: exit 2 with the error and its fix on stderr, {"ok": false} with --json, no stack, no file written', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'bad.har'), '{"log": 1}');
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, env: {}, cwd: dir };
  expect(await main(['draft', '--har', 'bad.har', '--json'], io)).toBe(2);
  expect(stderr).toContain('bad.har: not a HAR: log: Invalid input: expected object, received number');
  expect(stderr).toContain('Recommended fix: Record the sign-in again');
  expect(stderr).not.toMatch(STACK_FRAME);
  expect(JSON.parse(stdout)).toMatchObject({ ok: false, error: { code: 'HAR_INVALID' } });
  expect(execFileSync('ls', ['-A', dir], { encoding: 'utf8' })).toBe('bad.har\n');
  stderr = '';
  expect(await main(['draft'], io)).toBe(2);
  expect(stderr).toContain('draft needs --har FILE');
});
