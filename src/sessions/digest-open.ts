/**
 * Opening the config for the role matrix's digest, in whichever process does it: the runner's own
 * (`digestNow`) or the child of `digestInChild`.
 */
import { openConfig, type OpenConfigOptions } from './open-config.js';
import { digestOf, type RunDigest } from './run-digest.js';

/** What the role matrix asks for: where the config is, for which run (`digestNow`, `digestInChild`). */
export interface DigestRequest {
  /** As {@link OpenConfigOptions}' (opened with `checks: false`). */
  file?: string;
  baseDir: string;
  notFoundHint: string;
  /** The run the digest is for ({@link runId} of the caller: the child's pid is not the run's). */
  run: string;
}

/**
 * Opens the config as the role matrix needs it (no `checkPlan`, no preflight, a missing variable
 * left for the fixtures to report) and returns its digest for the request's run.
 *
 * @throws MultiAuthError as `openConfig` throws it (`ConfigInvalidError` for a config with errors).
 * @example
 * openDigest({ baseDir, notFoundHint: '', run: runId(process.env) }, process.env).users; // ['alice']
 */
export function openDigest(request: DigestRequest, env: Record<string, string | undefined>): RunDigest {
  const opened = openConfig({
    ...(request.file === undefined ? {} : { file: request.file }),
    baseDir: request.baseDir,
    env,
    notFoundHint: request.notFoundHint,
    // The names are all the matrix needs: the fixtures check the rest when a test signs in.
    checks: false,
    deferMissingEnv: true,
  });
  return digestOf(opened, request.run, false);
}
