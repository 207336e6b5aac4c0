import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from '@playwright/test';
import { parseConfig } from '../../src/config/index.js';
import { ConfigInvalidError } from '../../src/core/errors.js';
import { checkConfig } from '../../src/sessions/open-config.js';
import { thrown } from '../support/errors.js';
import { preflight } from '../../src/runtime/engine/preflight.js';

/**
 * The bad-config corpus: every `bad/NN-name.(yaml|json)` must fail to open as `multiauth validate`
 * opens it (loaded, then compiled and checked: browser commands too), and its rendered errors must
 * equal `bad/NN-name.expected.txt` exactly. Set MULTIAUTH_UPDATE_GOLDEN=1 to rewrite the golden
 * files, then read each one before committing it.
 */
const DIR = fileURLToPath(new URL('./bad/', import.meta.url));
const SHOWN_DIR = 'tests/config/bad';
const ENV = { COGNITO_SECRET: 'cognito-secret', ALICE_PASSWORD: 'alice-pw', WEB_CLIENT_SECRET: 'web-secret' };
const update = process.env.MULTIAUTH_UPDATE_GOLDEN === '1';

const cases = readdirSync(DIR).filter((name) => /^\d\d-[\w-]+\.(ya?ml|json)$/.test(name)).sort();

test('the corpus has at least 30 bad configs, each with a golden file', () => {
  expect(cases.length).toBeGreaterThanOrEqual(30);
  if (update) return;
  for (const name of cases) expect(existsSync(join(DIR, golden(name))), golden(name)).toBe(true);
});

for (const name of cases) {
  test(`bad config ${name}`, () => {
    const text = readFileSync(join(DIR, name), 'utf8');
    const shown = `${SHOWN_DIR}/${name}`;
    const error = thrown(() => checkConfig(parseConfig(text, shown, { env: ENV, dotenvDir: SHOWN_DIR }), shown, { preflight }));
    expect(error).toBeInstanceOf(ConfigInvalidError);
    const rendered = `${error.render()}\n`;
    expect(rendered).not.toMatch(/\n\s+at .+:\d+:\d+/);
    for (const secret of Object.values(ENV)) expect(rendered).not.toContain(secret);
    if (update) writeFileSync(join(DIR, golden(name)), rendered);
    else expect(rendered).toBe(readFileSync(join(DIR, golden(name)), 'utf8'));
  });
}

function golden(name: string): string {
  return name.replace(/\.(ya?ml|json)$/, '.expected.txt');
}
