/**
 * The child process of `digestInChild`: reads a {@link DigestRequest} on stdin, opens the config
 * with the environment it was given, and prints a {@link DigestAnswer} as JSON on stdout.
 */
import { readFileSync } from 'node:fs';
import { isMultiAuthError } from '../core/errors.js';
import { errorData } from '../core/error-data.js';
import type { DigestAnswer, DigestRequest } from './digest-in-child.js';
import { openDigest } from './digest-open.js';

function answer(): DigestAnswer {
  try {
    const request = JSON.parse(readFileSync(0, 'utf8')) as DigestRequest;
    return { digest: openDigest(request, process.env) };
  } catch (error) {
    if (!isMultiAuthError(error)) return { bug: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    return { error: errorData(error) };
  }
}

process.stdout.write(JSON.stringify(answer()));
