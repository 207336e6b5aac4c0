import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../support/root.js';
import { removeTempDirs, writeFiles } from '../support/temp-files.js';

test.afterAll(removeTempDirs);

/**
 * The built lazyModule, called from a module of a package in `folder` with `viaImport` (source text
 * of a function that sets `__viaImport` and loads `./late.js`); prints how the module came and
 * whether it is the one import() gives.
 */
function loadFrom(folder: string, viaImport = "() => { globalThis.__viaImport = true; return import('./late.js'); }", preload = false): { how: string; same: boolean } {
  const lazy = pathToFileURL(join(ROOT, 'dist', 'core', 'lazy-module.js')).href;
  const dir = writeFiles({
    [`${folder}/package.json`]: '{ "name": "pkg", "type": "module" }',
    [`${folder}/late.js`]: 'export class Late {}\n',
    [`${folder}/caller.js`]: `import { lazyModule } from ${JSON.stringify(lazy)};
${preload ? "import * as late from './late.js';" : ''}
const viaImport = ${viaImport};
const loaded = await lazyModule(viaImport);
const how = globalThis.__viaImport ? 'import' : 'required';
globalThis.__viaImport = false;
const again = await import('./late.js');
console.log(JSON.stringify({ how, same: loaded.Late === again.Late }));
`,
  });
  const run = spawnSync(process.execPath, [join(dir, folder, 'caller.js')], { encoding: 'utf8', timeout: 30_000 });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout) as { how: string; same: boolean };
}

test('an installed copy (under node_modules) requires its lazily loaded module into the module map import() reads', () => {
  expect(loadFrom('node_modules/pkg/dist')).toEqual({ how: 'required', same: true });
});

test('a copy outside node_modules (a link Playwright may compile, the sources) imports it', () => {
  expect(loadFrom('linked/pkg/dist')).toEqual({ how: 'import', same: true });
});

test('the module required is the one the function imports, as its source names it; a source that names none is imported', () => {
  // A bundle rewrites the import() to the chunk's place: the require follows it.
  expect(loadFrom('node_modules/pkg/dist', '() => { globalThis.__viaImport = true; return import("./late.js"); }')).toEqual({ how: 'required', same: true });
  // Code compiled to CommonJS names it in a require().
  expect(loadFrom('node_modules/pkg/dist', '() => { globalThis.__viaImport = true; return Promise.resolve().then(() => require("./late.js")); }')).toEqual({ how: 'required', same: true });
  // A module a bundler inlined: no specifier in the source, so the function itself loads it.
  expect(loadFrom('node_modules/pkg/dist', '() => { globalThis.__viaImport = true; return Promise.resolve(late); }', true)).toEqual({ how: 'import', same: true });
});
