import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MASK } from '../../src/core/redactor.js';
import { runMain } from '../support/cli-in-process.js';
import { ROOT } from '../support/root.js';
import { writeTempConfig } from '../support/temp-files.js';
import { CHROMIUM } from '../support/chromium.js';
import { expect, test } from './support.js';


/** examples/templates/totp.yaml, pointed at the test's demo server. */
function totpExample(demoUrl: string, edit: (text: string) => string = (t) => t): string {
  return edit(readFileSync(join(ROOT, 'examples', 'templates', 'totp.yaml'), 'utf8').replaceAll('http://127.0.0.1:4010', demoUrl));
}

// Issue 17, item 3: tina has a TOTP second factor, checked by otplib on the demo server; the
// package makes the codes with otpauth. Both ways in, as examples/templates/totp.yaml writes them.
for (const user of ['tina-api', 'tina-web']) {
  test(`a user with a second factor signs in through ${user === 'tina-api' ? 'an http step' : 'a browser step'}`, async ({ demo }) => {
    demo.clear();
    const { file, remove } = writeTempConfig(totpExample(demo.url));
    try {
      const run = await runMain(['login', user, '-c', file, '--browser-path', CHROMIUM]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(demo.counters.signIns).toEqual({ tina: 1 });
      expect(run.stdout).not.toContain('ORUW4YJN');
      if (user === 'tina-api') expect(run.stdout).toContain(`Authorization: Bearer ${MASK}`);
      else expect(run.stdout).toContain(`sid=${MASK}`);
    } finally {
      remove();
    }
  });
}

test('a wrong second-factor secret is a failed sign-in that names the step, not the secret', async ({ demo }) => {
  demo.clear();
  // A valid base32 secret, but not tina's.
  const { file, remove } = writeTempConfig(totpExample(demo.url, (t) => t.replaceAll('ORUW4YJNORXXI4BNONSWG4TFOQ2DEMRT', 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ')));
  try {
    const run = await runMain(['login', 'tina-api', '-c', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('HTTP 401');
    expect(run.stderr).toContain('user "tina-api"');
    expect(run.stderr).not.toContain('GEZDGNBV');
    expect(run.stderr).not.toContain('tina-password');
    expect(demo.counters.signIns).toEqual({});
  } finally {
    remove();
  }
});
