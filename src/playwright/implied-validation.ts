import type { Session } from '../runtime/index.js';

/** How long a probe (the session's GET, or the same GET without credentials) may take. */
export const PROBE_TIMEOUT_MS = 5_000;

/** URLs whose answer without credentials is known, per worker: more are forgotten oldest first. */
const MAX_KNOWN_URLS = 256;

/**
 * The implied validation of users without a `validation`: per user, the last GET that the
 * user's current session got a 2xx answer for (directly, not through a redirect). Before a
 * "signed out" answer signs the user in again, that GET is sent once more with the same session:
 * answered 2xx again, while it refuses a request without credentials, the session is alive and
 * the refused answer was a denial. One entry per user: the config bounds the map.
 *
 * @example
 * const gets = new ImpliedValidation();
 * gets.remember('dave', session, 'https://a.test/whoami');
 * gets.lastGet('dave', session); // 'https://a.test/whoami'
 */
export class ImpliedValidation {
  private readonly byUser = new Map<string, { createdAt: number; url: string }>();
  private readonly protectedUrls = new Map<string, boolean>();

  /** Remembers that `session` of `user` got a 2xx answer to a GET of `url`. */
  remember(user: string, session: Session, url: string): void {
    this.byUser.set(user, { createdAt: session.createdAt, url });
  }

  /** The last GET `session` got a 2xx answer for, or undefined (none, or one of an older session). */
  lastGet(user: string, session: Session): string | undefined {
    const last = this.byUser.get(user);
    return last && last.createdAt === session.createdAt ? last.url : undefined;
  }

  /**
   * Whether a GET of `url` without any credentials is refused (a status other than 2xx, a
   * redirect included): only then does a 2xx answer with the session prove it alive. A public
   * page answers anyone; an error (a network failure, a certificate Node does not trust) proves
   * nothing either. Asked once per URL and worker.
   */
  async refusesAnonymous(url: string): Promise<boolean> {
    const known = this.protectedUrls.get(url);
    if (known !== undefined) return known;
    let refused = false;
    try {
      const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      refused = response.status < 200 || response.status > 299;
      await response.body?.cancel().catch(() => undefined);
    } catch {
      return false;
    }
    if (this.protectedUrls.size >= MAX_KNOWN_URLS) this.protectedUrls.delete(this.protectedUrls.keys().next().value as string);
    this.protectedUrls.set(url, refused);
    return refused;
  }
}
