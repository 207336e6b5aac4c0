import { test, expect } from '@playwright/test';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MultiAuthError } from '../../../src/core/errors.js';
import { parseCurl } from '../../../src/compile/curl/index.js';
import { startHttpServer, type RunningServer } from '../../support/servers/node-http.js';
import { HOSTILE } from './hostile.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SECRET_TEXT = `CANARY-SECRET-${Math.random().toString(36).slice(2)}`;

let server: RunningServer;
let requests = 0;
let dir: string;
let secretFile: string;
let canaryFile: string;

test.beforeAll(async () => {
  server = await startHttpServer((_req, res) => {
    requests += 1;
    res.end('ok');
  });
  dir = mkdtempSync(join(tmpdir(), 'multiauth-curl-hostile-'));
  secretFile = join(dir, 'secret.txt');
  canaryFile = join(dir, 'canary');
  writeFileSync(secretFile, SECRET_TEXT);
  // The counter works: one real request moves it (then it is reset).
  await (await fetch(`${server.url}/control`)).text();
  expect(requests).toBe(1);
  requests = 0;
});

test.afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function fill(command: string): string {
  return command.replaceAll('SERVER', server.url).replaceAll('CANARY', canaryFile).replaceAll('SECRET', secretFile);
}

function refusal(command: string): MultiAuthError {
  try {
    parseCurl(command);
  } catch (error) {
    expect(error).toBeInstanceOf(MultiAuthError);
    return error as MultiAuthError;
  }
  throw new Error('parseCurl accepted a hostile command');
}

test('the hostile corpus holds at least 25 commands', () => {
  expect(HOSTILE.length).toBeGreaterThanOrEqual(25);
});

for (const hostile of HOSTILE) {
  test(`refuses ${hostile.name}`, () => {
    const command = fill(hostile.command);
    const error = refusal(command);
    expect(error.code).toBe(hostile.code);
    expect(error.message).toContain(hostile.construct);
    expect(error.hint, 'every refusal says what to do').toBeTruthy();
    const text = error.render();
    expect(text).not.toContain(SECRET_TEXT);
    expect(text.length).toBeLessThan(2000);
    if (command.length > 60) expect(text).not.toContain(command);
    expect(existsSync(canaryFile)).toBe(false);
  });
}

test('nothing was executed, no file written and no request sent by any parse', () => {
  for (const hostile of HOSTILE) {
    try {
      parseCurl(fill(hostile.command));
    } catch {
      // refused, as the tests above check
    }
  }
  const accepted = [
    `curl ${server.url}/login -d user=alice -L`,
    `curl '${server.url}/search?q=*' -G --data-urlencode 'q=a b'`,
    `curl ${server.url}/x #$(touch ${canaryFile})`,
    `curl ${server.url}/x -d '$(touch ${canaryFile})' -H 'X-A: \`touch ${canaryFile}\`'`,
  ];
  for (const command of accepted) expect(parseCurl(command).url).toContain(server.url);
  expect(existsSync(canaryFile)).toBe(false);
  expect(requests).toBe(0);
});

test('single-quoted shell syntax is data, never run', () => {
  const request = parseCurl(`curl ${server.url} -d '$(touch ${canaryFile}); $HOME \`id\`'`);
  expect(request.body).toBe(`$(touch ${canaryFile}); $HOME \`id\``);
  expect(existsSync(canaryFile)).toBe(false);
});

test('--data-raw @path is the text, not the file', () => {
  const request = parseCurl(`curl ${server.url} --data-raw @${secretFile}`);
  expect(request.body).toBe(`@${secretFile}`);
  expect(JSON.stringify(request)).not.toContain(SECRET_TEXT);
});

test('refusals never quote secrets of the command', () => {
  const error = refusal(`curl ${server.url} -u 'alice:hunter2-secret' -H 'Authorization: Bearer tok-secret' -o out`);
  expect(error.render()).not.toMatch(/hunter2|tok-secret/);
  const unknown = refusal(`curl ${server.url} --weird=super-secret-value`);
  expect(unknown.message).toContain('`--weird`');
  expect(unknown.render()).not.toContain('super-secret-value');
  const noPassword = refusal(`curl ${server.url} -u alice-secret-user`);
  expect(noPassword.code).toBe('CURL_PARSE');
  expect(noPassword.render()).not.toContain('alice-secret-user');
});

test('pathological input is refused or parsed quickly', () => {
  const inputs = [
    `curl ${server.url} ${'\\\n'.repeat(30000)}`,
    `curl ${server.url} -d '${"'\"'".repeat(20000)}'`,
    `curl ${server.url} ${'$\''.repeat(30000)}`,
    `${'\n'.repeat(60000)}curl ${server.url}`,
    `curl ^"${server.url}^" ${'^\n'.repeat(30000)}`,
    `curl ${server.url} -H 'a: ${' '.repeat(60000)}x'`,
  ];
  for (const input of inputs) {
    const started = performance.now();
    try {
      parseCurl(input);
    } catch (error) {
      expect(error).toBeInstanceOf(MultiAuthError);
    }
    expect(performance.now() - started).toBeLessThan(1000);
  }
});

/** Relative imports of a TypeScript file, resolved to files; bare ones returned as names. */
function importsOf(file: string): { files: string[]; packages: string[] } {
  const source = readFileSync(file, 'utf8');
  const specifiers = [...source.matchAll(/(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1] as string);
  const files: string[] = [];
  const packages: string[] = [];
  for (const specifier of specifiers) {
    if (specifier.startsWith('.')) files.push(resolve(dirname(file), specifier).replace(/\.js$/, '.ts'));
    else packages.push(specifier);
  }
  return { files, packages };
}

test('the simulator cannot reach files, processes or the network: static import graph', () => {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const queue = [join(ROOT, 'src/compile/curl/index.ts')];
  while (queue.length) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const found = importsOf(file);
    queue.push(...found.files);
    found.packages.forEach((p) => packages.add(p));
    const source = readFileSync(file, 'utf8');
    expect(source, file).not.toMatch(/process\.env|child_process|\beval\(|new Function|\bfetch\(/);
  }
  expect(seen.size).toBeGreaterThan(5);
  expect([...packages].sort()).toEqual(['shell-quote', 'zod']);
  for (const file of ['index.js', 'parse.js', 'quote.js']) {
    const source = readFileSync(join(ROOT, 'node_modules/shell-quote', file), 'utf8');
    const required = [...source.matchAll(/require\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1]);
    expect(required.every((r) => r?.startsWith('./')), `shell-quote/${file} requires only its own files`).toBe(true);
  }
});
