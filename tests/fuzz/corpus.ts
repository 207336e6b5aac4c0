import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../support/root.js';
import type { SeedConfig } from './mutate.js';

/** Where the fuzz corpus comes from: the example configs (YAML, and the JSON of examples/compat), and the bad-config corpus of the loader tests. */
const SOURCES: Array<{ dir: string; files: RegExp }> = [
  { dir: 'examples', files: /\.ya?ml$/ },
  { dir: 'examples/compat', files: /\.json$/ },
  { dir: 'tests/config/bad', files: /\.(ya?ml|json)$/ },
];

/**
 * The seed configs, sorted by path (so a seed replays the same cases), each with its parsed value
 * when it parses.
 *
 * @example
 * const corpus = loadCorpus(); // [{ name: 'examples/compat/full_http.json', text, value }, ...]
 */
export function loadCorpus(): SeedConfig[] {
  const files = [...new Set(SOURCES.flatMap(({ dir, files }) => walk(join(ROOT, dir)).filter((file) => files.test(file))))].sort();
  return files.map((file) => {
    const text = readFileSync(file, 'utf8');
    const seed: SeedConfig = { name: relative(ROOT, file), text };
    try {
      const value: unknown = parse(text);
      if (value !== null && typeof value === 'object') seed.value = value;
    } catch {
      // A corpus file that does not parse is mutated as text only.
    }
    return seed;
  });
}

/**
 * An environment in which every `${NAME}` of the corpus is set, so mutations get past env substitution.
 *
 * @example
 * fuzzEnv(corpus).ALICE_PASSWORD; // 'fuzz-ALICE_PASSWORD'
 */
export function fuzzEnv(corpus: readonly SeedConfig[]): Record<string, string> {
  const names = new Set(corpus.flatMap((seed) => [...seed.text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1] as string)));
  return Object.fromEntries([...names].map((name) => [name, `fuzz-${name}`]));
}

/** Files under `dir`, hidden directories (`.auth/` session caches) and node_modules left out. */
function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return entry.name.startsWith('.') || entry.name === 'node_modules' ? [] : walk(join(dir, entry.name));
    return [join(dir, entry.name)];
  });
}
