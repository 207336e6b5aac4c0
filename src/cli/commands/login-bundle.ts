import { resolve } from 'node:path';
import { MultiAuthError } from '../../core/errors.js';
import type { PlanUser } from '../../compile/index.js';
import { closeDispatchers, signInUser, type SignInResult } from '../../runtime/index.js';
import { configOwner, digestOf, FileBackend, loadPasskeySealing, runId, sealerFromEnv, type OpenedConfig } from '../../sessions/index.js';
import type { CliIo } from '../io.js';
import { inOrderBounded, userFailure } from './bounded.js';
import { browserFor } from './browser-users.js';
import { describeExpiry } from './login-output.js';

/** What `multiauth login --all --out DIR` needs besides the opened config. */
export interface BundleRequest {
  users: readonly PlanUser[];
  /** The directory written: what shards then use as `MULTIAUTH_CACHE_DIR`. */
  out: string;
  parallel: number;
  browserPath?: string;
  io: CliIo;
}

/**
 * Signs `users` in (a few at a time) and writes what each sign-in produced into `out` as the
 * fixtures' file store does (same names, same keys), sealed with `MULTIAUTH_CACHE_KEY`: a setup job
 * signs in once, uploads the directory as a CI artifact, and every shard that downloads it and
 * points `MULTIAUTH_CACHE_DIR` at it starts signed in. Users without a procedure need no session and
 * are skipped. Prints one line per user; returns how many failed.
 *
 * @throws MultiAuthError `CLI_USAGE` when no `MULTIAUTH_CACHE_KEY` is set (a bundle travels: it is
 *   written sealed) unless `MULTIAUTH_STORE_PLAINTEXT=1`.
 * @example
 * const failed = await writeBundle(opened, { users: plan.users, out: 'auth-bundle', parallel: 4, io });
 */
export async function writeBundle(opened: OpenedConfig, request: BundleRequest): Promise<number> {
  const { io } = request;
  const sealer = sealerFromEnv(io.env);
  if (!sealer && io.env.MULTIAUTH_STORE_PLAINTEXT !== '1') {
    throw new MultiAuthError('CLI_USAGE', 'a session bundle is written sealed: MULTIAUTH_CACHE_KEY is not set', {
      hint: 'Set MULTIAUTH_CACHE_KEY to 32 random bytes in base64 (`openssl rand -base64 32`), the same in the setup job and the shards (a CI secret); or MULTIAUTH_STORE_PLAINTEXT=1 to write plaintext.',
    });
  }
  const { plan, redactor, file } = opened;
  const digest = digestOf(opened, runId(io.env), true);
  const keys = new Map(digest.users.map((user, index) => [user, digest.userKeys[index] as string]));
  const out = resolve(io.cwd, request.out);
  const backend = new FileBackend({ dir: out, owner: configOwner(file), ...(sealer ? { sealer } : {}) });
  const signing = request.users.filter((user) => user.procedure !== undefined);
  const browser = await browserFor(plan, signing, request.browserPath, io);
  const { registersUnsealed, unsealedPasskeyError } = await loadPasskeySealing();
  let failed = 0;
  try {
    await inOrderBounded(
      signing,
      request.parallel,
      async (user): Promise<{ user: string; produced?: SignInResult; error?: MultiAuthError }> => {
        try {
          // MULTIAUTH_STORE_PLAINTEXT=1 covers session tokens, never a registered private key.
          if (registersUnsealed(user, io.env)) throw unsealedPasskeyError(user);
          const produced = await signInUser(plan, user.name, { redactor, browser: browser?.browser });
          const key = keys.get(user.name) as string;
          await backend.write(backend.slot(user.name, key), key, produced);
          return { user: user.name, produced };
        } catch (error) {
          return { user: user.name, error: userFailure(error, redactor) };
        }
      },
      ({ user, produced, error }) => {
        if (error) {
          failed++;
          io.stderr.write(`${redactor.redact(`FAIL  ${user}\n${error.render()}`)}\n`);
        } else {
          io.stdout.write(`ok    ${user}  expires ${describeExpiry(produced?.expiresAt ?? null, Date.now())}\n`);
        }
      },
    );
  } finally {
    await closeDispatchers();
    await browser?.close();
  }
  io.stdout.write(`${out}: ${signing.length - failed} session${signing.length - failed === 1 ? '' : 's'} written${sealer ? ', sealed' : ' IN PLAINTEXT'}${failed ? `, ${failed} failed` : ''}\n`);
  return failed;
}
