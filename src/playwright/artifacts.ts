import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { TestInfo } from '@playwright/test';
import { dependencyOnFirstUse } from '../core/package-files.js';
import type { Zippable } from 'fflate';
import type { Redactor } from '../core/redactor.js';

/** Archives larger than this are not read into memory to be rewritten: they are removed instead. */
const MAX_ARCHIVE_BYTES = 1024 ** 3;
/** Entries are rewritten only when they are text; a binary entry (an image) fails this decoder. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A zip archive with every text entry passed through `redactor` (binary entries, such as
 * screenshots, are kept as they are), or undefined when no entry changed. Playwright's trace
 * archives hold the requests' headers, the actions' parameters (cookies added to a context, headers
 * set on it) and the bodies the pages received as text entries.
 *
 * @example
 * const masked = redactArchive(readFileSync('trace.zip'), redactor);
 */
export function redactArchive(archive: Uint8Array, redactor: Redactor): Uint8Array | undefined {
  const { unzipSync, zipSync } = zip();
  const entries = unzipSync(archive);
  // A null prototype: an entry named __proto__ stays an entry.
  const out: Zippable = Object.create(null) as Zippable;
  let changed = false;
  for (const name of Object.keys(entries)) {
    const data = entries[name] as Uint8Array;
    const text = asText(data);
    if (text === undefined) {
      // Images and other compressed data gain nothing from deflate.
      out[name] = [data, { level: 0 }];
      continue;
    }
    const masked = redactor.redact(text);
    if (masked !== text) changed = true;
    out[name] = [masked === text ? data : new TextEncoder().encode(masked), { level: 6 }];
  }
  return changed ? zipSync(out) : undefined;
}

function asText(data: Uint8Array): string | undefined {
  try {
    return UTF8.decode(data);
  } catch {
    return undefined;
  }
}

/**
 * Rewrites a trace archive on disk with every secret `redactor` knows masked (atomically: a
 * reader sees the old file or the new one). An archive that cannot be read or is too large to
 * rewrite is removed, with a line on stderr saying so: a trace with secrets in it must not be
 * kept by accident.
 *
 * @example
 * redactTraceFile('test-results/a-test/trace.zip', redactor);
 */
export function redactTraceFile(path: string, redactor: Redactor, warn: (text: string) => void = (t) => process.stderr.write(t)): void {
  // Why it failed is said in our words only: a failure's own message may quote the archive's text.
  let reason = 'it could not be read or rewritten';
  try {
    if (statSync(path).size > MAX_ARCHIVE_BYTES) {
      reason = `it is larger than ${MAX_ARCHIVE_BYTES / 1024 ** 3} GiB`;
      throw new Error(reason);
    }
    const masked = redactArchive(readFileSync(path), redactor);
    if (!masked) return;
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, masked);
    renameSync(temp, path);
  } catch {
    rmSync(path, { force: true });
    warn(`playwright-multiauth: removed ${path}: its secrets could not be masked (${reason}).\n`);
  }
}

/**
 * Masks secrets in the archives Playwright attaches to this test from now on: the trace, which
 * Playwright writes after every fixture of the test and the worker has been torn down, and attaches
 * by `testInfo.attachments.push` before any reporter reads it. Playwright has no redaction API for
 * traces: this wraps that `push` (Playwright replaces it with its own for every test, and it is
 * writable) so that the archive is rewritten on disk before it is attached. The redactor is asked
 * then, so it knows every session the test used.
 *
 * @example
 * maskAttachedTraces(testInfo, workerAuth.redactor);
 */
export function maskAttachedTraces(testInfo: TestInfo, redactor: Redactor): void {
  const attachments = testInfo.attachments;
  const push = attachments.push;
  Object.defineProperty(attachments, 'push', {
    value: (...items: TestInfo['attachments']) => {
      for (const item of items) {
        if (item.path && item.contentType === 'application/zip' && redactor.size > 0) redactTraceFile(item.path, redactor);
      }
      return push.apply(attachments, items);
    },
    writable: true,
    enumerable: false,
    configurable: true,
  });
}

/** fflate, loaded on the first trace to mask: most tests attach none. */
const zip = dependencyOnFirstUse<typeof import('fflate')>('fflate');
