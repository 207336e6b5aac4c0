import { linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './root.js';

let base: string | undefined;

/**
 * The folder child runs' projects go in (`runInlineProject`), with the built package installed
 * under its `node_modules` as `npm install` leaves it: `package.json` and its `files`, hard-linked
 * (no copy of the bytes). A spec there imports 'playwright-multiauth' from node_modules, so Playwright
 * loads it as a dependency (required, not compiled as the project's own code and sent through its
 * loader module by module) and the runner opens a config in process: what a user's run does, and
 * 0.3 CPU-s less per runner and worker process than the self-reference to dist/ it replaces.
 *
 * Named after the build (dist/index.js's inode and time), so a rebuild gets a fresh folder and
 * processes of one run share one; made under a temporary name and renamed into place, so two
 * workers that make it at once never see half of it. The package's dependencies and
 * `@playwright/test` resolve from this repository's node_modules, above it. Each project in it has
 * a package.json of its own (`runInlineProject` writes one): an ES module scope with another name,
 * so 'playwright-multiauth' is no self-reference there.
 *
 * @example
 * const dir = mkdtempSync(join(inlineBase(), 'p-'));
 */
export function inlineBase(): string {
  const index = statSync(join(ROOT, 'dist', 'index.js'));
  const wanted = join(ROOT, '.tmp-inline', `installed-${index.ino}-${Math.floor(index.mtimeMs)}`);
  if (base === wanted) return base;
  try {
    statSync(join(wanted, 'node_modules', 'playwright-multiauth', 'package.json'));
    return (base = wanted);
  } catch {
    // Not made yet for this build.
  }
  const making = `${wanted}.${process.pid}-${Date.now()}`;
  const target = join(making, 'node_modules', 'playwright-multiauth');
  // What npm installs: the manifest and its `files` (dist, bin, src, docs, examples, README.md).
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
  mkdirSync(target, { recursive: true });
  linkSync(join(ROOT, 'package.json'), join(target, 'package.json'));
  for (const entry of manifest.files) {
    if (statSync(join(ROOT, entry)).isDirectory()) linkTree(join(ROOT, entry), join(target, entry));
    else linkSync(join(ROOT, entry), join(target, entry));
  }
  try {
    renameSync(making, wanted);
    removeStale(wanted);
  } catch {
    // Another worker made it first: theirs is the same.
    rmSync(making, { recursive: true, force: true });
  }
  return (base = wanted);
}

/** A folder of another build older than this belongs to a finished run (no run of the suite takes two hours). */
const STALE_MS = 2 * 60 * 60 * 1000;

/** Removes the folders (and the projects in them) of earlier builds. */
function removeStale(keep: string): void {
  const parent = join(ROOT, '.tmp-inline');
  const now = Date.now();
  for (const name of readdirSync(parent).filter((entry) => entry.startsWith('installed-'))) {
    const path = join(parent, name);
    try {
      if (path !== keep && now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed by another worker meanwhile.
    }
  }
}

function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.isDirectory()) linkTree(join(from, entry.name), join(to, entry.name));
    else if (entry.isFile()) linkSync(join(from, entry.name), join(to, entry.name));
  }
}
