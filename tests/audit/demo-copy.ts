import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDemoSuite, type DemoRunResult } from '../support/demo-run.js';
import { ROOT } from '../support/root.js';

/** A copy of examples/demo that can be edited and run without touching the original. */
export interface DemoCopy {
  dir: string;
  remove(): void;
}

/** Where the run's reporters write, relative to the copy. */
export const AUDIT_OUTPUTS = { json: 'report.json', html: 'html-report', results: 'test-results' } as const;

// Every reporter the project documents, at once, and a trace of every test (what CI uploads when a
// test fails); the copy's own config stays as it is otherwise.
const AUDIT_CONFIG = `
import base from './playwright.config';
export default {
  ...base,
  use: { ...base.use, trace: 'on' },
  outputDir: '${AUDIT_OUTPUTS.results}',
  reporter: [
    ['list'],
    ['line'],
    ['json', { outputFile: '${AUDIT_OUTPUTS.json}' }],
    ['html', { outputFolder: '${AUDIT_OUTPUTS.html}', open: 'never' }],
  ],
};
`;

/**
 * Copies examples/demo into a fresh folder under .tmp-audit/ (inside the package, so
 * `import 'playwright-multiauth'` resolves to the built dist/ by self-reference), points its
 * webServer at the demo server by absolute path and adds `audit.config.ts` with every reporter.
 *
 * @example
 * const copy = copyDemo({ 'carol-password': 'carol-WRONG-s3cret-pw' });
 */
export function copyDemo(configReplacements: Record<string, string> = {}): DemoCopy {
  const base = join(ROOT, '.tmp-audit');
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, 'demo-'));
  cpSync(join(ROOT, 'examples', 'demo'), dir, { recursive: true, filter: (src) => !/[\\/](\.auth|test-results|playwright-report)$/.test(src) });

  const configFile = join(dir, 'playwright.config.ts');
  const serverMain = join(ROOT, 'fixtures', 'demo-server', 'main.ts');
  replaceOnce(configFile, '../../fixtures/demo-server/main.ts', serverMain);
  writeFileSync(join(dir, 'audit.config.ts'), AUDIT_CONFIG);

  for (const [from, to] of Object.entries(configReplacements)) replaceOnce(join(dir, 'multiauth.yaml'), from, to);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Runs the copy's suite with every reporter, as CI would.
 *
 * @example
 * const { code, stdout, stderr } = await runDemoCopy(copy);
 */
export function runDemoCopy(copy: DemoCopy): Promise<DemoRunResult> {
  return runDemoSuite({ config: join(copy.dir, 'audit.config.ts'), cwd: copy.dir });
}

function replaceOnce(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  if (text.split(from).length !== 2) throw new Error(`expected exactly one "${from}" in ${file}`);
  writeFileSync(file, text.replace(from, () => to));
}
