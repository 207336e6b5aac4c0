import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Frames kept when the stack is read: the callers the package looks for are a few frames up. */
const MAX_FRAMES = 30;

/**
 * The absolute paths of the files on the call stack above `below` (innermost first), `node:`
 * internals left out. Read from V8's call sites, so they name files exactly: no stack text to parse,
 * no source map in between (Playwright maps stack text to sources, and its maps point at `src/`).
 *
 * @example
 * stackFiles(stackFiles); // ['/repo/dist/playwright/config-dir.js', '/repo/tests/a.spec.ts', ...]
 */
export function stackFiles(below: (...args: never[]) => unknown): string[] {
  const { prepareStackTrace, stackTraceLimit } = Error;
  try {
    Error.prepareStackTrace = (_error, sites) => sites;
    Error.stackTraceLimit = MAX_FRAMES;
    const holder: { stack?: unknown } = {};
    Error.captureStackTrace(holder, below);
    const sites = holder.stack as NodeJS.CallSite[];
    const files: string[] = [];
    for (const site of sites) {
      const name = site.getFileName();
      if (!name || name.startsWith('node:')) continue;
      const path = name.startsWith('file://') ? fileURLToPath(name) : name;
      if (isAbsolute(path)) files.push(path);
    }
    return files;
  } finally {
    Error.prepareStackTrace = prepareStackTrace;
    Error.stackTraceLimit = stackTraceLimit;
  }
}

/**
 * The file of the module that calls this function: what `import.meta.url` says, for code that must not
 * contain `import.meta`. Playwright compiles a package found outside `node_modules` (one installed
 * as a link: `npm link`, `npm i ../dir`, `file:`, a workspace) as the project's own code, and on
 * `require()` (a CommonJS project) it compiles it to CommonJS; Node then reads a file that still holds
 * `import.meta` as an ES module again, where the CommonJS `exports` it was given does not exist.
 *
 * @example
 * const here = ownFile(); // '/repo/dist/sessions/digest-in-child.js'
 */
export function ownFile(): string {
  const file = stackFiles(ownFile)[0];
  if (file === undefined) throw new Error('playwright-multiauth: the calling module has no file on the stack');
  return file;
}
