import { createRequire } from 'node:module';
import { stackFiles } from './call-site.js';

/**
 * Loads one of the package's own modules on first use, synchronously into the module cache the
 * package runs from, through a `require` made for the calling module's file. The package is built as
 * CommonJS, and Playwright compiles a linked copy of it (`npm link`, `npm i ../dir`, `file:`, a
 * workspace) to CommonJS too: there an `import()` would go through Node's ES module loader, inside a
 * Playwright worker through Playwright's loader thread, a round trip per module (the config's parser,
 * schema, compiler and HTTP client loaded in 0.8 s that way, in 0.45 s required, before a worker's
 * first sign-in).
 *
 * From the sources as ES modules (a TypeScript loader: the package's own tests), and for a module
 * whose source names none, `viaImport` runs. What it imports is what is required: the specifier is
 * read from its source text, relative to the calling module as the `import()` is, so that a build
 * which moves the calling code (a bundle's chunk) and rewrites the `import()` moves the `require`
 * with it.
 *
 * @example
 * const engine = await lazyModule(() => import('./engine/authenticate.js'));
 */
export async function lazyModule<T>(viaImport: () => Promise<T>): Promise<T> {
  const loaded = requireInto(stackFiles(lazyModule)[0], importedBy(viaImport));
  return loaded === undefined ? viaImport() : (loaded.module as T);
}

/**
 * Loads one of the package's own modules synchronously into the module cache the package runs
 * from, where {@link lazyModule} would `require` it; `undefined` where it would `import()` it
 * (the caller then has no synchronous way that keeps one copy of each module). For code that must
 * not wait, as `playwright.config.ts` loading. `module` is never called: it names the module as
 * {@link lazyModule}'s `viaImport` does.
 *
 * @example
 * const opener = requireNow(() => import('./digest-open.js'));
 * if (opener) opener.openDigest(request, process.env);
 */
export function requireNow<T>(module: () => Promise<T>): T | undefined {
  return requireInto(stackFiles(requireNow)[0], importedBy(module))?.module as T | undefined;
}

/**
 * Whether {@link requireNow} can load the calling module's neighbours (the package as built, or
 * compiled by Playwright: CommonJS), so that what only an exit handler needs can wait until then;
 * else (the sources as ES modules) the caller loads it ahead with `import()`.
 *
 * @example
 * if (!canRequireNow()) void loadRunTimeline().then((module) => (timeline = module));
 */
export function canRequireNow(): boolean {
  return requiringCaller(stackFiles(canRequireNow)[0]) !== undefined;
}

/** The one module `() => import('./x.js')` loads, as its source says (`require("./x.js")` once compiled to CommonJS). */
const IMPORTED = /\b(?:import|require)\((["'])(\.{1,2}\/[^"'\\\n]{1,300})\1\)/;

/**
 * The relative specifier the function imports, or undefined when its source is of another shape
 * (a bundler that inlined the module it named: then only `import()` loads it).
 */
function importedBy(viaImport: () => Promise<unknown>): string | undefined {
  return IMPORTED.exec(Function.prototype.toString.call(viaImport).slice(0, 400))?.[2];
}

/** `callerFile` when the package runs as CommonJS (a `require` made for it loads into the cache the package runs from), else undefined. */
function requiringCaller(callerFile: string | undefined): string | undefined {
  // `require` exists in a module's scope only when the module is CommonJS.
  return typeof require === 'function' ? callerFile : undefined;
}

function requireInto(callerFile: string | undefined, specifier: string | undefined): { module: unknown } | undefined {
  const caller = requiringCaller(callerFile);
  if (caller === undefined || specifier === undefined) return undefined;
  return { module: createRequire(caller)(specifier) };
}
