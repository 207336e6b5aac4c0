import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../support/root.js';
import { removeTempDirs, writeFiles } from '../support/temp-files.js';

test.afterAll(removeTempDirs);

/** The built lazyModule, called from a module of a package in `folder`; prints how the module came and whether it is the one import() gives. */
function loadFrom(folder: string): { how: string; same: boolean } {
  const lazy = pathToFileURL(join(ROOT, 'dist', 'core', 'lazy-module.js')).href;
  const dir = writeFiles({
    [`${folder}/package.json`]: '{ "name": "pkg", "type": "module" }',
    [`${folder}/late.js`]: 'export class Late {}\nexport const how = globalThis.__viaImport ? "import" : "required";\n',
    [`${folder}/caller.js`]: `import { lazyModule } from ${JSON.stringify(lazy)};
const viaImport = () => { globalThis.__viaImport = true; return import('./late.js'); };
const loaded = await lazyModule('./late.js', viaImport);
globalThis.__viaImport = false;
const again = await import('./late.js');
console.log(JSON.stringify({ how: loaded.how, same: loaded.Late === again.Late }));
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
