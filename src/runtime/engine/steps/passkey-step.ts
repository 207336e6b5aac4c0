import type { BrowserContext } from 'playwright-core';
import type { PlanUser } from '../../../compile/index.js';
import { MultiAuthError, isMultiAuthError } from '../../../core/errors.js';
import type { Observation } from '../../http/observation.js';
import { heldPasskeys, rpIdFits, seedPasskey } from '../../protocols/browser/index.js';
import { passkeySeed, storablePasskey, type PasskeyCredential, type StoredPasskey } from '../../session/passkey.js';

/**
 * The passkey of one sign-in: what the store had before it (`current`), replaced by each browser
 * step with what its context held after it (the counter grown, a passkey registered).
 */
export interface PasskeyRun {
  current: StoredPasskey | undefined;
}

/**
 * Seeds the user's passkey into a browser step's context before its first page (when the user has
 * a passkey), and returns what to call after the step: `done` keeps what the context holds in
 * `run`; `failed` turns a step failure that the passkey explains into an `AUTH_PASSKEY` error.
 *
 * @example
 * const passkey = await startPasskey(context, user, run);
 * try { await runBrowserStep(...); await passkey.done(); } catch (e) { throw await passkey.failed(e, observed); }
 */
export async function startPasskey(context: BrowserContext, user: PlanUser, run: PasskeyRun | undefined) {
  const seed = user.passkey ? passkeySeed(user, run?.current) : undefined;
  if (user.passkey) await seedPasskey(context, seed, { user: user.name, path: user.passkey.origin });
  return {
    async done(): Promise<void> {
      if (!user.passkey || !run) return;
      const kept = pick(user, seed, await heldPasskeys(context));
      if (kept) run.current = storablePasskey(user, kept);
    },
    async failed(error: unknown, observation: Observation | undefined): Promise<unknown> {
      if (!seed || !isMultiAuthError(error)) return error;
      const after = (await heldPasskeys(context).catch(() => [])).find((c) => c.id === seed.id);
      return passkeyFailure(user, seed, after, observation, error) ?? error;
    },
  };
}

/** The credential to keep: for `register`, the one the page registered (else the seeded one); else the seeded one. */
function pick(user: PlanUser, seed: PasskeyCredential | undefined, held: PasskeyCredential[]): PasskeyCredential | undefined {
  if (user.passkey?.kind === 'register') return held.filter((c) => c.id !== seed?.id).at(-1) ?? held.find((c) => c.id === seed?.id);
  return held.find((c) => c.id === seed?.id);
}

/**
 * The passkey's part in a failed browser step, when it has one: no assertion made and no page of
 * the rp_id's site visited (a wrong rp_id: the authenticator found no credential), or an assertion
 * made and then refused with a word about the counter.
 */
function passkeyFailure(
  user: PlanUser,
  seed: PasskeyCredential,
  after: PasskeyCredential | undefined,
  observation: Observation | undefined,
  cause: MultiAuthError,
): MultiAuthError | undefined {
  const path = user.passkey?.origin;
  const hosts = [...new Set((observation?.urls ?? []).flatMap((url) => hostOf(url)))].slice(0, 5);
  const asserted = after !== undefined && after.signCount > seed.signCount;
  if (!asserted && hosts.length && !hosts.some((host) => rpIdFits(seed.rpId, host))) {
    return new MultiAuthError('AUTH_PASSKEY', `the passkey of user "${user.name}" is for rp_id "${seed.rpId}", which none of the sign-in's pages (${hosts.join(', ')}) may use: the page's navigator.credentials.get() found no credential`, {
      cause,
      ...(path ? { path: [...path, 'rp_id'] } : {}),
      context: { user: user.name },
      details: [cause.message],
      hint: 'Set `rp_id` to the relying party id the site uses: its domain (for http://127.0.0.1:3000, 127.0.0.1), without scheme or port.',
    });
  }
  const refusal = asserted ? (observation?.responses ?? []).find((r) => r.status >= 400 && /counter/i.test(r.body ?? '')) : undefined;
  if (refusal && after) {
    return new MultiAuthError('AUTH_PASSKEY', `the relying party refused the passkey of user "${user.name}": signature counter ${after.signCount} (HTTP ${refusal.status})`, {
      cause,
      ...(path ? { path } : {}),
      context: { user: user.name, status: refusal.status },
      details: [cause.message],
      hint: 'The server keeps a higher counter than the store: raise the passkey\'s `sign_count` above it (a strict relying party refuses a counter that did not grow).',
    });
  }
  return undefined;
}

function hostOf(url: string): string[] {
  try {
    const { protocol, hostname } = new URL(url);
    return protocol === 'http:' || protocol === 'https:' ? [hostname] : [];
  } catch {
    return [];
  }
}
