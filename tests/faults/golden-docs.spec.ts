import { readdirSync, readFileSync } from 'node:fs';
import { test, expect } from '@playwright/test';
import { ErrorCode } from '../../src/core/errors.js';

/** docs/errors.md documents every error code, and quotes the fault tests' golden errors word for word. */
const docs = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
const GOLDEN = new URL('./golden/', import.meta.url);

test('every error code has its section in docs/errors.md', () => {
  const sections = [...docs.matchAll(/^### ([A-Z_]+)$/gm)].map((m) => m[1]);
  expect(sections.sort()).toEqual(Object.values(ErrorCode).sort());
});

test('docs/errors.md quotes every golden error of the fault tests as it is', () => {
  const files = readdirSync(GOLDEN).filter((name) => name.endsWith('.txt'));
  expect(files.length).toBeGreaterThanOrEqual(10);
  for (const name of files) {
    const text = readFileSync(new URL(name, GOLDEN), 'utf8').replace(/\n$/, '');
    expect(docs, `golden ${name}`).toContain(`\`\`\`text\n${text}\n\`\`\``);
  }
});
