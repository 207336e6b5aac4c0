import { resolve } from 'node:path';

/**
 * The package root (where `package.json`, `bin/`, `dist/`, `examples/` and `node_modules/` are),
 * without a trailing slash: join paths onto it.
 *
 * @example
 * join(ROOT, 'examples', 'presets', 'curl.yaml');
 */
export const ROOT = resolve(import.meta.dirname, '..', '..');
