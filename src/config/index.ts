/**
 * The config layer: read `multiauth.yaml` / `.json`, substitute `${ENV}` (with `.env`), validate
 * against the format's schema and cross-checks, and report every problem as `file:line:col`.
 */
export { loadConfig, parseConfig, findConfigFile, sortIssues, CONFIG_FILE_NAMES } from './load.js';
export type { LoadedConfig, LoadOptions } from './load.js';
export { crossCheck, type Locator } from './cross-check.js';
export { schemaIssues, type IssueSource } from './issues.js';
export { SourceMap } from './source-map.js';
export { suggest, didYouMean } from '../core/suggest.js';
export * from './schema/index.js';
export { formatJsonSchema } from './json-schema.js';
export { CONFIG_LIMITS } from './limits.js';
export { ANONYMOUS } from './access-check.js';
