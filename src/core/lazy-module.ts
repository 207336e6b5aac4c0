/**
 * Loads one of the package's own modules on first use, in the module system the package itself runs
 * in. Natively the package is ES modules, and `viaImport` runs. Installed as a link (`npm link`,
 * `npm i ../dir`, `file:`, a workspace) into a CommonJS project, Playwright compiles every module of
 * the package to CommonJS as it is `require`d; an `import()` there would load a second, ES module copy
 * of each module it reaches (a second `MultiAuthError` class that `instanceof` does not know, a
 * second memo), so `viaRequire` runs instead, into the same module cache.
 *
 * @example
 * const engine = await lazyModule<typeof import('./engine/authenticate.js')>(
 *   () => require('./engine/authenticate.js'), () => import('./engine/authenticate.js'));
 */
export async function lazyModule<T>(viaRequire: () => T, viaImport: () => Promise<T>): Promise<T> {
  // `require` exists in a module's scope only when the module was compiled to CommonJS.
  return typeof require === 'function' ? viaRequire() : viaImport();
}
