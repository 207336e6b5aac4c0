import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';

// The layer check of `npm test` (scripts/check-layers.sh) must catch what it is there for: the probe
// copies src/ and the rules, adds one offending file per rule, and runs the same check on the copy.
const ROOT = resolve(import.meta.dirname, '..', '..');
const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise');
/** dependency-cruiser's report without colours, so the assertions read plain text. */
const ENV = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' };

function check(cwd: string): { status: number | null; output: string } {
  const run = spawnSync(DEPCRUISE, ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], { cwd, env: ENV, encoding: 'utf8', timeout: 120_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

test('the source tree keeps the layer rules', () => {
  const { status, output } = check(ROOT);
  expect(output).not.toMatch(/^\s*error /m);
  expect(status).toBe(0);
});

test('an upward import, a later room, a cycle, @playwright/test outside the fixtures and a deep import into a layer each fail the check', () => {
  const dir = mkdtempSync(join(tmpdir(), 'multiauth-layers-'));
  try {
    cpSync(join(ROOT, 'src'), join(dir, 'src'), { recursive: true });
    for (const file of ['.dependency-cruiser.cjs', 'tsconfig.json', 'tsconfig.build.json']) cpSync(join(ROOT, file), join(dir, file));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    const probes: Record<string, string> = {
      'src/core/probe-up.ts': "import { authenticate } from '../runtime/index.js';\nexport const probe = authenticate;\n",
      'src/runtime/http/probe-room.ts': "import { authenticate } from '../engine/authenticate.js';\nexport const probe = authenticate;\n",
      'src/core/probe-a.ts': "import { b } from './probe-b.js';\nexport const a = (): number => b() + 1;\n",
      'src/core/probe-b.ts': "import { a } from './probe-a.js';\nexport const b = (): number => a() - 1;\n",
      'src/runtime/engine/probe-pw.ts': "import { expect } from '@playwright/test';\nexport const probe = expect;\n",
      'src/playwright/probe-door.ts': "import { authenticate } from '../runtime/engine/authenticate.js';\nexport const probe = authenticate;\n",
    };
    for (const [file, text] of Object.entries(probes)) writeFileSync(join(dir, file), text);
    const { status, output } = check(dir);
    expect(status).not.toBe(0);
    expect(output).toContain('error layer-core: src/core/probe-up.ts → src/runtime/index.ts');
    expect(output).toContain('error runtime-room-http: src/runtime/http/probe-room.ts → src/runtime/engine/authenticate.ts');
    expect(output).toMatch(/error no-circular: src\/core\/probe-(a|b)\.ts/);
    expect(output).toContain('error playwright-test-only-in-playwright: src/runtime/engine/probe-pw.ts');
    expect(output).toContain('error front-door: src/playwright/probe-door.ts → src/runtime/engine/authenticate.ts');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
