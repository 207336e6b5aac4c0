import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../support/root.js';
import { removeTempDirs, writeFiles } from '../support/temp-files.js';

test.afterAll(removeTempDirs);

/** Source text of a function that sets `__viaImport` and loads the package's neighbour `file`. */
const importing = (file: string) => `() => { globalThis.__viaImport = true; return import('./${file}'); }`;

/**
 * The built lazyModule (CommonJS, as the package ships), called from a CommonJS module of a package
 * in `folder` with `viaImport`; prints how the module came and whether it is the one `require` gives.
 */
function loadBuilt(folder: string, viaImport = importing('late.cjs'), preload = false): { how: string; same: boolean } {
  const dir = writeFiles({
    [`${folder}/package.json`]: '{ "name": "pkg" }',
    [`${folder}/late.cjs`]: 'exports.Late = class Late {};\n',
    [`${folder}/caller.cjs`]: `const { lazyModule } = require(${JSON.stringify(join(ROOT, 'dist', 'core', 'lazy-module.cjs'))});
${preload ? "const late = require('./late.cjs');" : ''}
const viaImport = ${viaImport};
lazyModule(viaImport).then((loaded) => {
  const how = globalThis.__viaImport ? 'import' : 'required';
  console.log(JSON.stringify({ how, same: loaded.Late === require('./late.cjs').Late }));
});
`,
  });
  return run(['node', join(dir, folder, 'caller.cjs')]);
}

/**
 * lazyModule from the sources (an ES module, through tsx, as the package's own tests run it),
 * called from an ES module of a package in `folder`; whether it is the one import() gives.
 */
function loadFromSources(folder: string): { how: string; same: boolean } {
  const lazy = pathToFileURL(join(ROOT, 'src', 'core', 'lazy-module.ts')).href;
  const dir = writeFiles({
    [`${folder}/package.json`]: '{ "name": "pkg", "type": "module" }',
    [`${folder}/late.js`]: 'export class Late {}\n',
    [`${folder}/caller.js`]: `import { lazyModule } from ${JSON.stringify(lazy)};
const loaded = await lazyModule(${importing('late.js')});
const how = globalThis.__viaImport ? 'import' : 'required';
globalThis.__viaImport = false;
const again = await import('./late.js');
console.log(JSON.stringify({ how, same: loaded.Late === again.Late }));
`,
  });
  return run(['node', '--import', 'tsx', join(dir, folder, 'caller.js')]);
}

function run([, ...args]: string[]): { how: string; same: boolean } {
  const out = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  expect(out.stderr).toBe('');
  return JSON.parse(out.stdout) as { how: string; same: boolean };
}

test('the built package requires its lazily loaded module into the module cache it runs from, installed or linked', () => {
  expect(loadBuilt('node_modules/pkg/dist')).toEqual({ how: 'required', same: true });
  expect(loadBuilt('linked/pkg/dist')).toEqual({ how: 'required', same: true });
});

test('the module required is the one the function imports, as its source names it; a source that names none is imported', () => {
  // A bundle rewrites the import() to the chunk's place: the require follows it.
  expect(loadBuilt('node_modules/pkg/dist', '() => { globalThis.__viaImport = true; return import("./late.cjs"); }')).toEqual({ how: 'required', same: true });
  // Code compiled to CommonJS names it in a require().
  expect(loadBuilt('node_modules/pkg/dist', '() => { globalThis.__viaImport = true; return Promise.resolve().then(() => require("./late.cjs")); }')).toEqual({ how: 'required', same: true });
  // A module a bundler inlined: no specifier in the source, so the function itself loads it.
  expect(loadBuilt('node_modules/pkg/dist', '() => { globalThis.__viaImport = true; return Promise.resolve(late); }', true)).toEqual({ how: 'import', same: true });
});

test('from the sources, ES modules under a TypeScript loader, it imports', () => {
  expect(loadFromSources('linked/pkg/dist')).toEqual({ how: 'import', same: true });
  expect(loadFromSources('node_modules/pkg/dist')).toEqual({ how: 'import', same: true });
});
