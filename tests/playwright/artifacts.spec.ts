import { test, expect } from '@playwright/test';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { Redactor } from '../../src/core/redactor.js';
import { redactArchive, redactTraceFile } from '../../src/playwright/artifacts.js';

const SECRET = 'tok-7f3c9e21-secret';
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0x01]);
const text = (data: Uint8Array | undefined) => new TextDecoder().decode(data);

let dir: string;
test.beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'multiauth-artifacts-'));
});
test.afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('redactArchive masks every text entry, keeps binary entries as they are, and says when nothing changed', () => {
  const archive = zipSync({
    'trace.network': new TextEncoder().encode(`{"name":"Authorization","value":"Bearer ${SECRET}"}`),
    'resources/abc.json': new TextEncoder().encode(`{"token":"${SECRET}"}`),
    'resources/shot.png': PNG,
  });
  const masked = redactArchive(archive, new Redactor().add(SECRET));
  expect(masked).toBeDefined();
  const entries = unzipSync(masked!);
  expect(text(entries['trace.network'])).toBe('{"name":"Authorization","value":"Bearer ********"}');
  expect(text(entries['resources/abc.json'])).toBe('{"token":"********"}');
  expect(entries['resources/shot.png']).toEqual(PNG);
  expect(redactArchive(archive, new Redactor().add('not-in-there'))).toBeUndefined();
});

test('redactTraceFile rewrites the archive in place; one it cannot read is removed, saying so', () => {
  const path = join(dir, 'trace.zip');
  writeFileSync(path, zipSync({ 'test.trace': new TextEncoder().encode(`stdout ${SECRET}`) }));
  redactTraceFile(path, new Redactor().add(SECRET));
  expect(text(unzipSync(readFileSync(path))['test.trace'])).toBe('stdout ********');

  const broken = join(dir, 'broken.zip');
  writeFileSync(broken, `PK\u0003\u0004 not really a zip ${SECRET}`);
  const warnings: string[] = [];
  redactTraceFile(broken, new Redactor().add(SECRET), (t) => warnings.push(t));
  expect(existsSync(broken)).toBe(false);
  expect(warnings.join('')).toMatch(/removed .*broken\.zip: its secrets could not be masked/);
});
