/**
 * The child process of `digestInChild`: reads a {@link DigestRequest} on stdin, opens the config
 * with the environment it was given, and prints a {@link DigestAnswer} as JSON on stdout.
 */
import { readFileSync } from 'node:fs';
import { isMultiAuthError } from '../core/errors.js';
import { errorData } from '../core/error-data.js';
import type { DigestAnswer, DigestRequest } from './digest-in-child.js';
import { openConfig } from './open-config.js';
import { digestOf } from './run-digest.js';

function answer(): DigestAnswer {
  try {
    const request = JSON.parse(readFileSync(0, 'utf8')) as DigestRequest;
    const opened = openConfig({
      ...(request.file === undefined ? {} : { file: request.file }),
      baseDir: request.baseDir,
      env: process.env,
      notFoundHint: request.notFoundHint,
      // The names are all the matrix needs: the fixtures check the rest when a test signs in.
      checks: false,
      deferMissingEnv: true,
    });
    return { digest: digestOf(opened, request.run, false) };
  } catch (error) {
    if (!isMultiAuthError(error)) return { bug: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    return { error: errorData(error) };
  }
}

process.stdout.write(JSON.stringify(answer()));
