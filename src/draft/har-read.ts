import { MultiAuthError } from '../core/errors.js';
import { NotRegularFileError, readRegularFile } from '../core/regular-file.js';
import { Har, type HarEntry } from './har-schema.js';
import { HAR_LIMITS } from './har-limits.js';
import { FORBIDDEN_KEYS, jsonNesting } from './json-safe.js';


const RECORD_HINT =
  'Record the sign-in again and save it as HAR: Playwright `npx playwright codegen --save-har=login.har URL`, or the network panel\'s "Save all as HAR" (docs/draft.md).';

/**
 * Reads a HAR file the user named: a regular file of at most `HAR_LIMITS.fileBytes` (a FIFO or
 * device is refused before it is opened), then {@link parseHar}.
 *
 * @throws MultiAuthError `HAR_INVALID` when it is missing or not a HAR; `HAR_LIMIT` when it is
 *   larger than a bound, or not a regular file.
 * @example
 * const entries = readHarFile('login.har', 'login.har');
 */
export function readHarFile(path: string, shown: string): HarEntry[] {
  let text: string;
  try {
    text = readRegularFile(path, { maxBytes: HAR_LIMITS.fileBytes });
  } catch (error) {
    if (!(error instanceof NotRegularFileError)) throw error;
    if (error.reason === 'missing') throw new MultiAuthError('HAR_INVALID', `${shown}: no such file`, { hint: RECORD_HINT });
    const limit = error.reason === 'too-large' ? ` (more than ${HAR_LIMITS.fileBytes / 1024 / 1024} MiB)` : '';
    throw new MultiAuthError('HAR_LIMIT', `${shown}: ${error.what}${limit}`, {
      hint: 'Record only the sign-in and one signed-in request (a fresh browser context, no other tabs).',
    });
  }
  return parseHar(text, shown);
}

/**
 * The entries of a HAR text, checked: JSON nested at most `HAR_LIMITS.depth` deep (checked by
 * one scan before parsing), no `__proto__`, `constructor` or `prototype` key anywhere, HAR 1.2's
 * shape for what the drafter reads, at most `HAR_LIMITS.entries` entries of at most
 * `HAR_LIMITS.pairs` headers, cookies and parameters each.
 *
 * @throws MultiAuthError `HAR_INVALID` or `HAR_LIMIT`, naming the place (`log.entries[3].request.url`).
 * @example
 * parseHar('{"log":{"entries":[]}}', 'x.har'); // []
 */
export function parseHar(text: string, shown: string): HarEntry[] {
  const depth = jsonNesting(text, HAR_LIMITS.depth);
  if (depth > HAR_LIMITS.depth) {
    throw new MultiAuthError('HAR_LIMIT', `${shown}: nested more than ${HAR_LIMITS.depth} levels deep`, {
      hint: 'A HAR is nested about 8 levels deep: this file is not one a browser or Playwright wrote.',
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text, (key: string, value: unknown) => {
      if (FORBIDDEN_KEYS.has(key)) throw new ForbiddenKey(key);
      return value;
    });
  } catch (error) {
    if (error instanceof ForbiddenKey) {
      throw new MultiAuthError('HAR_INVALID', `${shown}: the key "${error.key}" is not allowed in a HAR`, { hint: RECORD_HINT });
    }
    const reason = error instanceof Error ? error.message.split('\n')[0]!.slice(0, 200) : 'not JSON';
    throw new MultiAuthError('HAR_INVALID', `${shown}: not a HAR (not JSON: ${reason})`, { hint: RECORD_HINT });
  }
  const parsed = Har.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '') : 'the top level';
    throw new MultiAuthError('HAR_INVALID', `${shown}: not a HAR: ${where}: ${issue.message}`, {
      hint: `${RECORD_HINT} A HAR is {"log": {"entries": [{"request": {...}, "response": {...}}]}}.`,
    });
  }
  const entries = parsed.data.log.entries;
  if (entries.length > HAR_LIMITS.entries) {
    throw new MultiAuthError('HAR_LIMIT', `${shown}: ${entries.length} entries, more than ${HAR_LIMITS.entries}`, {
      hint: 'Record only the sign-in and one signed-in request (a fresh browser context, no other tabs).',
    });
  }
  entries.forEach((entry, index) => {
    const lists = [entry.request.headers, entry.request.cookies, entry.request.postData?.params, entry.response.headers, entry.response.cookies];
    if (lists.some((list) => (list?.length ?? 0) > HAR_LIMITS.pairs)) {
      throw new MultiAuthError('HAR_LIMIT', `${shown}: log.entries[${index}] has more than ${HAR_LIMITS.pairs} headers, cookies or parameters`, {
        hint: 'Record the sign-in again against the real application.',
      });
    }
  });
  return entries;
}

class ForbiddenKey extends Error {
  constructor(readonly key: string) {
    super(key);
  }
}
