// Removes the JavaScript source maps of dist/, but those of the modules that declare tests.
//
// Playwright maps every stack it captures (each API call's, each `test.extend`'s) through the maps
// of the files on it: parsing ours cost every worker about 20 ms of CPU (docs/performance.md).
// A module that declares tests for a spec file (`accessMatrix()`) keeps its map: Playwright names
// a test's place by its caller, and when every test of a file has one place of another extension
// than the file's (`access-matrix.cjs` for `access.spec.ts`), it files the whole spec under that
// place; mapped to `src/…/access-matrix.ts`, a TypeScript spec keeps its own name in the reports.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const KEEP = new Set(['playwright/access-matrix.cjs']);
const MAP_COMMENT = /\n\/\/# sourceMappingURL=[^\n]*\n?$/;

for (const name of readdirSync(DIST, { recursive: true }).map(String)) {
  if (!name.endsWith('.cjs') || KEEP.has(name.split('\\').join('/'))) continue;
  const file = join(DIST, name);
  const text = readFileSync(file, 'utf8');
  if (MAP_COMMENT.test(text)) writeFileSync(file, text.replace(MAP_COMMENT, '\n'));
  rmSync(`${file}.map`, { force: true });
}
