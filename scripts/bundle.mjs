// Bundles what `import 'playwright-multiauth'` loads at once into a few files (run after tsc), as
// CommonJS.
//
// Every process of a run (the runner and each worker) loads the package, and inside Playwright
// every ES module it loads is resolved and loaded through Playwright's loader thread, a round trip
// each: the 75 modules the entry reaches cost a process 28 ms of CPU, 17 ms as these chunks
// (docs/performance.md). As ES modules they still started Node's ES module loader in every worker of
// a CommonJS project (Playwright's default for TypeScript), which loads nothing else that way: as
// CommonJS a worker loads them in 11 ms less. Every module of tsc's output stays an entry at its own
// path, as `.cjs` (the CLI, the config's child process, the timeline teardown, lazily loaded parts),
// so nothing is loaded twice; the modules the package's entry reaches are moved into two chunks under
// dist/_chunks/, and the entry files of those modules re-export from them:
// - `playwright.cjs`: the Playwright layer's (it loads @playwright/test at its top level);
// - `base.cjs`: the rest, which the CLI and the config's child process share without Playwright.
// The access matrix's module stays in its own file, `playwright/access-matrix.cjs`, with its source
// map into src/ (prune-source-maps.mjs says why). `dist/index.js` is the ES module entry: a face of
// `index.cjs`, written last.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rollup } from 'rollup';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const OUT = fileURLToPath(new URL('../.tmp-bundle/', import.meta.url));
const ENTRY = join(DIST, 'index.js');
/** Files that only re-export: kept as they are, out of the chunks (the access matrix's chunk would import the one that re-exports it). */
const FACADES = new Set([ENTRY, join(DIST, 'playwright', 'index.js')]);
const OWN_FILES = new Set([join(DIST, 'playwright', 'access-matrix.js')]);

const modules = readdirSync(DIST, { recursive: true }).map(String).filter((name) => name.endsWith('.js'));
const input = Object.fromEntries(modules.map((name) => [name.slice(0, -'.js'.length).split(sep).join('/'), join(DIST, name)]));

let eager;
/** The modules the entry reaches by static imports. */
function eagerSet(getModuleInfo) {
  if (eager) return eager;
  eager = new Set();
  const visit = (id) => {
    if (eager.has(id)) return;
    eager.add(id);
    for (const next of getModuleInfo(id)?.importedIds ?? []) if (next.startsWith(DIST)) visit(next);
  };
  visit(ENTRY);
  return eager;
}

const bundle = await rollup({
  input,
  // Dependencies and Node's modules stay imports: only the package's own files are bundled.
  external: (id, importer) => importer !== undefined && !id.startsWith('.') && !id.startsWith(DIST),
  preserveEntrySignatures: 'strict',
  plugins: [
    {
      name: 'tsc-source-maps',
      // The kept map then leads to src/, through tsc's own.
      load(id) {
        if (!OWN_FILES.has(id) || !existsSync(`${id}.map`)) return null;
        return { code: readFileSync(id, 'utf8'), map: readFileSync(`${id}.map`, 'utf8') };
      },
    },
  ],
  onwarn(warning, warn) {
    // tsc's output names its map in a comment rollup does not follow: nothing to report.
    if (warning.code === 'SOURCEMAP_BROKEN') return;
    // A module of types alone (tsc leaves `export {}`) is an empty entry: it stays, for its declarations.
    if (warning.code === 'EMPTY_BUNDLE') return;
    warn(warning);
  },
});
rmSync(OUT, { recursive: true, force: true });
const { output } = await bundle.write({
  dir: OUT,
  format: 'cjs',
  exports: 'named',
  entryFileNames: '[name].cjs',
  chunkFileNames: '_chunks/[name].cjs',
  sourcemap: true,
  // Rollup would repeat the chunks' imports (node:fs, node:path, ...) in every file that imports a
  // chunk, for browsers to fetch early; under Node each is one more resolution in every process.
  hoistTransitiveImports: false,
  manualChunks(id, { getModuleInfo }) {
    if (OWN_FILES.has(id)) return 'access-matrix';
    if (FACADES.has(id) || !eagerSet(getModuleInfo).has(id)) return undefined;
    return relative(DIST, id).split(sep)[0] === 'playwright' ? 'playwright' : 'base';
  },
});
await bundle.close();

// The bundle's JavaScript replaces tsc's; the declarations stay.
for (const name of readdirSync(DIST, { recursive: true }).map(String)) {
  if (name.endsWith('.js') || name.endsWith('.js.map')) rmSync(join(DIST, name));
}
cpSync(OUT, DIST, { recursive: true });
rmSync(OUT, { recursive: true, force: true });

// The package's ES module entry is a face of its CommonJS one, not a second copy: a project that
// imports it and one that requires it (or one process doing both, as a CommonJS config beside an
// ES module spec) share one module of each (one `MultiAuthError` class, one memo).
const entry = output.find((file) => file.type === 'chunk' && file.fileName === 'index.cjs');
if (!entry) throw new Error('bundle: no index.cjs in the output');
const names = entry.exports.filter((name) => name !== 'default');
writeFileSync(
  join(DIST, 'index.js'),
  `// The ES module face of index.cjs (scripts/bundle.mjs says why).\nimport multiauth from './index.cjs';\n\nexport const { ${names.join(', ')} } = multiauth;\n`,
);
