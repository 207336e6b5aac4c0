import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';

/** The parts of a Playwright project that say which files it runs. */
export interface ProjectFiles {
  testDir?: string;
  testMatch?: unknown;
  testIgnore?: unknown;
}

/** Bounds of the scan: it runs while the runner loads its config, on a tree nobody checked. */
const LIMITS = { entries: 20_000, depth: 24, files: 2_000, headBytes: 64 * 1024 } as const;

/** Playwright's default `testMatch` (`**\/*.@(spec|test).?(c|m)[jt]s?(x)`). */
const DEFAULT_TEST_MATCH = /\.(spec|test)\.(c|m)?[jt]sx?$/;

const NAMED_IMPORT = /import\s*\{([^}]{0,2000})\}\s*from\s*['"]@playwright\/test['"]/g;
const DEFAULT_IMPORT = /import\s+[A-Za-z_$][\w$]*\s*(?:,\s*\{[^}]{0,2000}\}\s*)?from\s*['"]@playwright\/test['"]/;
const REQUIRE = /\{([^}]{0,2000})\}\s*=\s*require\(\s*['"]@playwright\/test['"]\s*\)/g;

/** Files already warned of in this process: several `authProjects` calls may share them. */
const warned = new Set<string>();

/**
 * Warns once per run of each spec file, among those the matrix projects run, that takes `test` from
 * `@playwright/test` instead of this package: Playwright ignores the projects' `authUser` there, so its
 * tests run signed out and fail later with the application's own 401 or login page, which says
 * nothing of why. Playwright has no hook that sees which `test` a file used, so the files are read:
 * only in the runner (workers load the config again and would repeat it), bounded in entries, depth,
 * files and bytes. A string `testMatch` (a glob) is read as Playwright's default pattern.
 *
 * @example
 * warnPlainTestImports({ testDir: 'tests' }, '/repo', ['api-alice', 'api-bob']);
 * // playwright-multiauth: warning: tests/old.spec.ts takes `test` from '@playwright/test': ...
 */
export function warnPlainTestImports(
  project: ProjectFiles,
  configDir: string,
  projectNames: string[],
  env: NodeJS.ProcessEnv = process.env,
  warn: (text: string) => void = (text) => process.stderr.write(text),
): void {
  if (env.TEST_WORKER_INDEX !== undefined) return;
  const root = project.testDir ? resolve(configDir, project.testDir) : configDir;
  const match = patterns(project.testMatch) ?? [DEFAULT_TEST_MATCH];
  const ignore = patterns(project.testIgnore) ?? [];
  for (const file of specFiles(root, match, ignore)) {
    if (warned.has(file) || !takesPlainTest(readHead(file))) continue;
    warned.add(file);
    const shown = isAbsolute(relative(configDir, file)) ? file : relative(configDir, file);
    warn(
      `playwright-multiauth: warning: ${shown} takes \`test\` from '@playwright/test', so its tests run signed out ` +
        `in ${projectNames.map((n) => `"${n}"`).join(', ')} (authUser, authedRequest and the signed-in page come with this package's test). ` +
        `Import { test, expect } from 'playwright-multiauth' (or from a file that extends it), or keep the file out of the matrix (testIgnore).\n`,
    );
  }
}

/** Whether a file's text takes `test` (named, renamed or the default export) from '@playwright/test'. */
export function takesPlainTest(text: string): boolean {
  if (DEFAULT_IMPORT.test(text)) return true;
  // `import type { ... }` does not match NAMED_IMPORT: a type brings no test.
  for (const found of text.matchAll(NAMED_IMPORT)) if (names(found[1]!, /\s+as\s+/).includes('test')) return true;
  for (const found of text.matchAll(REQUIRE)) if (names(found[1]!, /:/).includes('test')) return true;
  return false;
}

function names(list: string, renaming: RegExp): string[] {
  return list
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => !/^type\s/.test(entry))
    .map((entry) => entry.split(renaming)[0]!.trim());
}

function patterns(value: unknown): RegExp[] | undefined {
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  const regexes = list.filter((p): p is RegExp => p instanceof RegExp);
  // A glob (a string) is not ours to interpret: the default pattern stands in for it.
  return regexes.length ? regexes : undefined;
}

/** Spec files under `root`, skipping node_modules (as Playwright does), `.git` and links; bounded as LIMITS says. */
function specFiles(root: string, match: RegExp[], ignore: RegExp[]): string[] {
  const found: string[] = [];
  const stack: Array<{ dir: string; depth: number }> = [{ dir: root, depth: 0 }];
  let entries = 0;
  while (stack.length && found.length < LIMITS.files) {
    const { dir, depth } = stack.pop()!;
    let listed;
    try {
      listed = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of listed) {
      if (++entries > LIMITS.entries || found.length >= LIMITS.files) return found;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth < LIMITS.depth && entry.name !== 'node_modules' && entry.name !== '.git') stack.push({ dir: path, depth: depth + 1 });
      } else if (entry.isFile() && match.some((re) => testPath(re, path)) && !ignore.some((re) => testPath(re, path))) {
        found.push(path);
      }
    }
  }
  return found;
}

function testPath(re: RegExp, path: string): boolean {
  re.lastIndex = 0;
  return re.test(path);
}

function readHead(file: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const buffer = Buffer.alloc(LIMITS.headBytes);
    return buffer.toString('utf8', 0, readSync(fd, buffer, 0, buffer.length, 0));
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
