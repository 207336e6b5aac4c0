import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { main } from '../../src/cli/main.js';
import { STACK_FRAME } from '../support/cli.js';

/**
 * Inputs the fuzz test once found to break `multiauth validate`, kept as regressions (reduced by
 * hand). Each must be rejected as a config error: exit 2, no stack, no process warning.
 */
const CRASHERS: Array<{ name: string; text: string; expected: RegExp }> = [
  {
    // A map key holding a bad merge (`<<` of an alias that is not a map): naming the key's path threw from yaml's toJS (exit 70).
    name: 'a map key with a bad merge, on a line with a warning',
    text: '{ {"a"<<: *a: 1}: 2 }\n',
    expected: /^crasher\.yaml:1:7 {2}missing , or : between flow map items$/m,
  },
  {
    // yaml printed "(node:PID) Warning: Keys with collection values will be stringified", quoting the key's text.
    name: 'a map used as a key',
    text: '? { headers: [ { name: X, values: [hunter2-secret] } ] }\n: 1\nusers: []\n',
    expected: /^crasher\.yaml:1:1 {2}\["\{ headers: .*\}"\]: unknown key/m,
  },
];

for (const crasher of CRASHERS) {
  test(`validate rejects ${crasher.name} as a config error`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'multiauth-crasher-'));
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const file = join(dir, 'crasher.yaml');
      writeFileSync(file, crasher.text);
      const out = { stdout: '', stderr: '' };
      const code = await main(['validate', '-c', file], {
        stdout: { write: (text: string) => (out.stdout += text) },
        stderr: { write: (text: string) => (out.stderr += text) },
        env: {},
        cwd: dir,
      });
      expect(out.stderr).not.toContain('internal error');
      expect(out.stderr).not.toMatch(STACK_FRAME);
      expect(code).toBe(2);
      expect(out.stderr).toMatch(crasher.expected);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
