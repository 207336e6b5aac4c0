import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { ownFile } from './call-site.js';

/** The package's name in its package.json: what tells its root from a folder above or below it. */
const NAME = 'playwright-multiauth';
/** Folders walked up from a module to the root: `dist/` and `src/` are at most a few deep. */
const MAX_DEPTH = 8;

let own: { root: string; tree: string; extension: '.ts' | '.cjs' } | undefined;

/**
 * The package's own folder (its package.json, `bin/`, `dist/` or `src/`), found from this module's
 * file, wherever the build put it: a bundle's chunk sits elsewhere than the module it holds, so a
 * path counted in `..` from a module's own file would name another place.
 *
 * @example
 * join(packageRoot(), 'bin', 'multiauth.js'); // '/repo/node_modules/playwright-multiauth/bin/multiauth.js'
 */
export function packageRoot(): string {
  return ownPlace().root;
}

/**
 * The tree this code runs from: `<root>/dist` when built, `<root>/src` from the sources (a
 * TypeScript loader). Its modules are the package's own, not its caller's.
 *
 * @example
 * ownTree(); // '/repo/dist'
 */
export function ownTree(): string {
  return ownPlace().tree;
}

/**
 * The file of the package's module at `path` (its place under `src/`, without extension) in the
 * tree this code runs from: the built `.cjs` under `dist/`, or the `.ts` source.
 *
 * @example
 * packageModule('sessions/digest-child'); // '/repo/dist/sessions/digest-child.cjs'
 */
export function packageModule(path: string): string {
  const { tree, extension } = ownPlace();
  return join(tree, `${path}${extension}`);
}

/**
 * A getter of dependency `name` that loads it on its first call, synchronously (its CommonJS build,
 * through a `require` made for the package's own files), and keeps it: for what most processes of a
 * run never need, so that importing the package does not load it.
 *
 * @example
 * const fflate = dependencyOnFirstUse<typeof import('fflate')>('fflate');
 * fflate().zipSync(files);
 */
export function dependencyOnFirstUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= createRequire(ownFile())(name) as T);
}

/** Where this module's file is, worked out once: the root above it, its tree, its extension. */
function ownPlace(): { root: string; tree: string; extension: '.ts' | '.cjs' } {
  if (own !== undefined) return own;
  const here = ownFile();
  for (let dir = dirname(here), depth = 0; depth < MAX_DEPTH && dirname(dir) !== dir; dir = dirname(dir), depth++) {
    if (namedOurs(join(dir, 'package.json'))) {
      const tree = join(dir, relative(dir, here).split(sep)[0] as string);
      return (own = { root: dir, tree, extension: extensionOf(here) });
    }
  }
  throw new Error(`playwright-multiauth is incomplete: no package.json of ${NAME} above ${here}; reinstall the package.`);
}

/** The sources are `.ts` (run by a TypeScript loader); the build is CommonJS, `.cjs` (scripts/bundle.mjs). */
function extensionOf(file: string): '.ts' | '.cjs' {
  return file.endsWith('.ts') ? '.ts' : '.cjs';
}

function namedOurs(file: string): boolean {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name === NAME;
  } catch {
    return false;
  }
}
