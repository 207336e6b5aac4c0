import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { test, expect } from '@playwright/test';
import { ROOT } from '../support/root.js';

// Issue 25, item 8: the docs a user reads in node_modules/playwright-multiauth link only to files that
// are there. The package's files are what `npm pack` would put in the tarball (computed once); the
// repository's own folders (tests/, bench/, fixtures/, scripts/, ...) are what a mention may not name
// unless the package ships the file.

const MAX_OUTPUT = 16 * 1024 * 1024;

function run(command: string, args: string[]): string {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: MAX_OUTPUT, timeout: 60_000 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr.slice(0, 2000)}`);
  return result.stdout;
}

/** The paths `npm pack` ships, without running any script of the package. */
function packedFiles(): Set<string> {
  const [pack] = JSON.parse(run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'])) as [{ files: { path: string }[] }];
  return new Set(pack.files.map((file) => file.path));
}

/** The top-level folders of the repository, as git tracks them: what a repo-path mention starts with. */
function repositoryFolders(): string[] {
  const tracked = run('git', ['ls-files', '-z']).split('\0').filter((path) => path.includes('/'));
  return [...new Set(tracked.map((path) => path.slice(0, path.indexOf('/'))))].filter((name) => /^[\w.-]+$/.test(name));
}

/** Markdown without its fenced blocks (examples of a user's own files) and HTML comments. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/<!--[\s\S]*?-->/g, '');
}

/** Whether `path` (relative to the package root, no leading `./`) is a shipped file or a folder of one. */
function resolves(path: string, files: Set<string>): boolean {
  const clean = path.replace(/\/+$/, '');
  if (clean === '' || clean === '.') return true;
  if (files.has(clean)) return true;
  const prefix = `${clean}/`;
  for (const file of files) if (file.startsWith(prefix)) return true;
  return false;
}

/**
 * The relative links and the repo-path mentions of one shipped markdown file that name nothing the
 * package ships, each as `file: what`.
 */
function deadReferences(file: string, markdown: string, files: Set<string>, folders: string[]): string[] {
  const text = prose(markdown);
  const dead: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]{1,500})(?:\s+"[^"]{0,200}")?\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target as string) || (target as string).startsWith('#')) continue;
    const path = decodeURI((target as string).replace(/[#?].*$/, ''));
    const resolved = posix.normalize(posix.join(posix.dirname(file), path));
    if (resolved.startsWith('../') || !resolves(resolved, files)) dead.push(`${file}: link ${target}`);
  }
  const names = folders.map((name) => name.replace(/[.]/g, '\\.')).join('|');
  const mention = new RegExp(`(?<![\\w.@/~-])(?:\\.{1,2}/)*(?:${names})/[^\\s\`'"()\\[\\]<>,;:*|]{0,300}`, 'g');
  for (const [found] of text.replace(/\]\([^)]*\)/g, ']').matchAll(mention)) {
    const path = found.replace(/^(\.{1,2}\/)+/, '').replace(/[.]+$/, '');
    if (!resolves(path, files)) dead.push(`${file}: mentions ${path}`);
  }
  return dead;
}

let files: Set<string>;
let folders: string[];

test.beforeAll(() => {
  files = packedFiles();
  folders = repositoryFolders();
});

test('the check finds a link and a mention of files the package does not ship', () => {
  expect(folders).toEqual(expect.arrayContaining(['tests', 'bench', 'fixtures', 'src', 'docs']));
  const probe = 'See [the bench](../bench/run.ts), `tests/faults/golden/`, [format](format.md), `src/core/errors.ts`,\n'
    + 'and fixtures/demo-server.\n```ts\n// tests/alice.spec.ts: a user\'s own file, in an example\n```\n';
  expect(deadReferences('docs/probe.md', probe, files, folders)).toEqual([
    'docs/probe.md: link ../bench/run.ts',
    'docs/probe.md: mentions tests/faults/golden/',
    'docs/probe.md: mentions fixtures/demo-server',
  ]);
});

test('every relative link and repo-path mention in the shipped markdown names a shipped file', () => {
  const markdown = [...files].filter((path) => path.endsWith('.md'));
  expect(markdown).toEqual(expect.arrayContaining(['README.md', 'docs/format.md', 'docs/errors.md', 'examples/README.md']));
  const dead = markdown.flatMap((file) => deadReferences(file, readFileSync(join(ROOT, file), 'utf8'), files, folders));
  expect(dead).toEqual([]);
});
