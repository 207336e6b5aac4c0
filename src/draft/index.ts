/**
 * `multiauth draft`: a config drafted from a recorded sign-in (a HAR file). The front door of the
 * layer: it reads a HAR (untrusted, bounded: `HAR_LIMITS`) and writes nothing; the CLI writes
 * the files and signs in with the draft.
 */
export { readHarFile, parseHar } from './har-read.js';
export { HAR_LIMITS } from './har-limits.js';
export { toExchanges, type Exchange } from './exchanges.js';
export { draftFromHar, type Draft } from './draft.js';
