import { applySession } from '../../src/runtime/session/apply.js';
import { newCookieJar } from '../../src/runtime/http/cookie-jar.js';
import { sendRequest } from '../../src/runtime/http/transport.js';
import type { Session } from '../../src/runtime/session/session.js';

/** What the demo's `/whoami` answered. */
export interface WhoAmI {
  status: number;
  user?: string;
  via?: string;
  role?: string;
}

/**
 * Sends `/whoami` as the session's user (through `applySession`, as every authenticated request
 * is) and returns what the demo server recognised. `post` sends a JSON body so body injections apply.
 *
 * @example
 * expect(await whoami(demo.url, session)).toMatchObject({ user: 'alice', via: 'header' });
 */
export async function whoami(baseUrl: string, session: Session, options: { post?: boolean } = {}): Promise<WhoAmI> {
  const request = applySession(
    session,
    options.post
      ? { method: 'POST', url: `${baseUrl}/whoami`, headers: [['Content-Type', 'application/json']], body: '{"probe":true}' }
      : { method: 'GET', url: `${baseUrl}/whoami`, headers: [] },
  );
  const observation = await sendRequest(request, { timeoutMs: 5_000, followRedirects: 0, insecure: false, jar: newCookieJar() });
  const response = observation.responses.at(-1);
  return { status: response?.status ?? 0, ...(JSON.parse(response?.body || '{}') as object) };
}
