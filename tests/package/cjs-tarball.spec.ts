import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { test, expect } from '../support/demo.js';
import { ROOT } from '../support/root.js';
import { CHROMIUM, installEnv, PACKAGE, packTarballOnce, PINNED, run, seedToolchain, DEMO_CONFIG as CONFIG, type Run } from '../support/packed-package.js';

// Issue 16, item 5: the package as a user gets it. The packed tarball is installed into a fresh
// CommonJS project (`npm init -y`: no "type": "module") beside @playwright/test and TypeScript; its
// specs type-check, and the README's quick start runs its spec (an API call and a page as alice)
// against the demo server. CommonJS projects load this ES module through require(esm) (Node 20.19+,
// what `engines` says). The API and page specs below run in install-shapes/tarball.spec.ts (an ES
// module project, two workers, one sign-in): one child Playwright run fewer here (issue 36).

/** The fenced block of the README that comes first after `marker`. */
function readmeBlock(marker: string, language: string): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const from = readme.indexOf(marker);
  const start = readme.indexOf(`\`\`\`${language}\n`, from);
  const end = readme.indexOf('\n```', start);
  if (from === -1 || start === -1 || end === -1) throw new Error(`README.md has no ${language} block after "${marker}"`);
  return readme.slice(start + language.length + 4, end + 1);
}

const PLAYWRIGHT_CONFIG = `
import { defineConfig } from '@playwright/test';
export default defineConfig({
  testDir: 'tests',
  outputDir: 'test-results',
  reporter: [['list']],
  use: { baseURL: process.env.DEMO_URL, launchOptions: { executablePath: process.env.CHROMIUM } },
});
`;

const API_SPEC = `
import { test, expect, authUsers } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
test('api: alice is signed in', async ({ authedRequest }) => {
  expect(authUsers()).toEqual(['alice']);
  const me: { user: string } = await (await authedRequest.get('/whoami')).json();
  expect(me.user).toBe('alice');
});
`;

const PAGE_SPEC = `
import { test, expect } from 'playwright-multiauth';
test.use({ authUser: 'alice' });
test('page: requests of the page carry alice', async ({ page }) => {
  await page.goto('/');
  const me = await page.evaluate(async () => (await fetch('/whoami')).json());
  expect(me.user).toBe('alice');
});
`;

const TSCONFIG = JSON.stringify({ compilerOptions: { module: 'nodenext', target: 'es2022', strict: true, noEmit: true, skipLibCheck: false, types: ['node'] }, include: ['**/*.ts'] });

test('the packed tarball works in a fresh CommonJS project: typecheck of an API and a page spec, the README\'s quick start run', async ({ demo }) => {
  expect(PACKAGE.engines.node).toBe('>=20.19');
  // Install, typecheck, check and two child runs: minutes when the machine is busy.
  test.setTimeout(600_000);
  // The tarball only: the unpacked copy the link shapes install is not this file's to wait for.
  const tarball = await packTarballOnce();
  expect(basename(tarball)).toBe(`playwright-multiauth-${PACKAGE.version}.tgz`);
  const dir = mkdtempSync(join(tmpdir(), 'multiauth-cjs-'));
  const env = installEnv();
  let typechecked: Promise<Run> | undefined;
  try {
    const project = join(dir, 'project');
    mkdirSync(project);
    const init = await run('npm', ['init', '-y'], project, env);
    expect(init.code, init.output).toBe(0);
    const initialized = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(initialized.type).not.toBe('module');
    // The toolchain is installed already (the run's copy), its ranges in the manifest; npm adds the
    // tarball and its dependencies and keeps the toolchain (named on its command line, or without
    // its bin links, npm would extract it a second time).
    writeFileSync(join(project, 'package.json'), JSON.stringify({ ...initialized, devDependencies: PINNED }, null, 2));
    await seedToolchain(project, ['@playwright/test', 'typescript', '@types/node']);
    const installed = await run('npm', ['install', '--no-save', tarball], project, env);
    expect(installed.code, installed.output).toBe(0);
    expect(installed.output).not.toMatch(/changed \d+ packages?/);

    // What ships: the docs the README links to, no map pointing at a missing file.
    const shipped = join(project, 'node_modules', 'playwright-multiauth');
    for (const [, link] of readFileSync(join(shipped, 'README.md'), 'utf8').matchAll(/\]\(((?!https?:)[^)#]+)\)/g)) {
      expect(existsSync(join(shipped, link as string)), `README links to ${link}`).toBe(true);
    }
    const files = readdirSync(shipped, { recursive: true }).map(String);
    expect(files.filter((name) => /(^|\/)(\.env|\.auth|test-results)(\/|$)/.test(name))).toEqual([]);
    // No JavaScript source map (Playwright would parse them in every worker, docs/performance.md)
    // but the one of the module that declares tests for spec files; declaration maps lead an
    // editor to src/, which ships.
    const built = readdirSync(join(shipped, 'dist'), { recursive: true }).map(String);
    expect(built.filter((name) => /\.c?js\.map$/.test(name))).toEqual([join('playwright', 'access-matrix.cjs.map')]);
    expect(built.filter((name) => /\.c?js$/.test(name) && readFileSync(join(shipped, 'dist', name), 'utf8').includes('//# sourceMappingURL='))).toEqual([join('playwright', 'access-matrix.cjs')]);
    const maps = built.filter((name) => name.endsWith('.map'));
    expect(maps).toContain('index.d.ts.map');
    for (const name of maps) {
      const map = JSON.parse(readFileSync(join(shipped, 'dist', name), 'utf8')) as { sources: string[] };
      for (const source of map.sources) expect(() => readFileSync(join(shipped, 'dist', name, '..', source)), `${name} -> ${source}`).not.toThrow();
    }

    writeFileSync(join(project, 'playwright.config.ts'), PLAYWRIGHT_CONFIG);
    writeFileSync(join(project, 'multiauth.yaml'), CONFIG);
    writeFileSync(join(project, '.env'), 'ALICE_PASSWORD=alice-password\n');
    writeFileSync(join(project, 'tsconfig.json'), TSCONFIG);
    mkdirSync(join(project, 'tests'));
    writeFileSync(join(project, 'tests', 'api.spec.ts'), API_SPEC);
    writeFileSync(join(project, 'tests', 'page.spec.ts'), PAGE_SPEC);

    // The README's quick start, as written, in a folder of its own: config, .env, check, spec.
    const quick = join(project, 'quick');
    mkdirSync(join(quick, 'tests'), { recursive: true });
    writeFileSync(join(quick, 'multiauth.yaml'), readmeBlock('**2. Declare the users**', 'yaml'));
    const dotenv = readmeBlock('**3. Put the secrets in `.env`**', 'bash');
    expect(dotenv).toBe('BASE_URL=https://staging.example.test\nALICE_PASSWORD=...\nBOB_PASSWORD=...\n');
    writeFileSync(join(quick, '.env'), `BASE_URL=${demo.url}\nALICE_PASSWORD=alice-password\nBOB_PASSWORD=bob-password\n`);
    const quickConfig = readmeBlock('**5. Write a spec**', 'ts');
    // baseURL comes from the .env above (the demo's URL), as the config's URLs do.
    expect(quickConfig).toContain('baseURL: env.BASE_URL');
    writeFileSync(join(quick, 'playwright.config.ts'), quickConfig
      .replace('use: {', 'outputDir: "test-results", use: { launchOptions: { executablePath: process.env.CHROMIUM },'));
    writeFileSync(join(quick, 'tests', 'alice.spec.ts'), readmeBlock('// playwright.config.ts', 'ts'));

    // The typecheck reads what the check and the run do not write (quick/.auth, test-results are no
    // .ts): it runs beside them, the file's wall time is the longer of the two, not their sum.
    typechecked = run(process.execPath, [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], project, env);

    demo.clear();
    expect(readmeBlock('**4. Check that every user signs in**', 'bash')).toBe('npx multiauth check\n');
    const check = await run('npx', ['multiauth', 'check'], quick, env);
    expect(check.code, check.output).toBe(0);
    expect(check.output).toContain('2 users: 2 signed in');
    const quickRun = await run(process.execPath, [join(project, 'node_modules', '@playwright', 'test', 'cli.js'), 'test'], quick, { ...env, CHROMIUM });
    expect(quickRun.code, quickRun.output).toBe(0);
    expect(quickRun.output).toContain('1 passed');
    const typecheck = await typechecked;
    expect(typecheck.code, typecheck.output).toBe(0);

  } finally {
    // A failed step before the typecheck's end: the folder goes after tsc stops reading it.
    await typechecked?.catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
});
