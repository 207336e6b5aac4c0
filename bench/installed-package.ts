import { cpSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * A folder outside this repository whose `node_modules` holds the package as `npm install` leaves it
 * (its `files` and package.json, a real folder under `node_modules`), beside this repository's
 * dependencies (linked). A bench project inside the repository would import the package by
 * self-reference from `dist/`, which Playwright takes for the user's own code: it compiles it and
 * loads every file through its loader, which no installed package pays.
 *
 * @example
 * const dir = installedPackageRoot(join(tmpdir(), 'multiauth-bench-vs')); // then write projects under dir
 */
export function installedPackageRoot(dir: string): string {
  rmSync(dir, { recursive: true, force: true });
  const modules = join(dir, 'node_modules');
  mkdirSync(modules, { recursive: true });
  const ours = join(root, 'node_modules');
  for (const name of readdirSync(ours)) {
    if (name.startsWith('.')) continue;
    if (name.startsWith('@')) {
      mkdirSync(join(modules, name));
      for (const inner of readdirSync(join(ours, name))) symlinkSync(join(ours, name, inner), join(modules, name, inner));
    } else {
      symlinkSync(join(ours, name), join(modules, name));
    }
  }
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; files: string[] };
  const target = join(modules, pkg.name);
  mkdirSync(target);
  for (const entry of ['package.json', ...pkg.files]) {
    if (lstatSync(join(root, entry), { throwIfNoEntry: false })) cpSync(join(root, entry), join(target, entry), { recursive: true });
  }
  return dir;
}
