// A stand-in Playwright worker: asks a shared SessionStore for a user's session, signing in through
// a counting HTTP server, and prints how it got it. Args: dir scopeKey user signInUrl [holdMs] [ttlMs]
// Plain JavaScript on the built dist/ (what a worker runs too): through tsx, each of the test's
// stand-ins spent most of its start compiling src/, and eight of them start at once.
import { request } from 'undici';
// The store's own module, not the layer's front door (which also brings openConfig and the whole
// config pipeline): a stand-in worker must start as fast as the store alone lets it.
import { SessionStore } from '../../../dist/sessions/session-store.cjs';
import { emptySession } from '../../../dist/runtime/session/apply.cjs';

const [dir, scopeKey, user, url, holdMs = '0', ttlMs = ''] = process.argv.slice(2);
const ttl = ttlMs ? Number(ttlMs) : undefined;

/** The session ./make-session.ts makes (this file is not compiled): the runtime's empty session holding a Bearer `token`. */
function makeSession(u, token, expiresAt) {
  return { ...emptySession(u, Date.now()), headers: { Authorization: [`Bearer ${token}`] }, expiresAt, variables: { token } };
}

async function call(kind) {
  const res = await request(`${url}/${kind}/${user}`, { method: 'POST' });
  const token = await res.body.text();
  await new Promise((r) => setTimeout(r, Number(holdMs)));
  return token;
}

const store = new SessionStore(
  { dir, scopeKey, lock: { staleMs: 2_000, waitMs: 30_000 } },
  {
    signIn: async (u) => makeSession(u, await call('signin'), ttl === undefined ? null : Date.now() + ttl),
    refresh: async (s) => ({ ...makeSession(s.user, await call('refresh'), ttl === undefined ? null : Date.now() + ttl), origin: 'refreshed' }),
  },
);
const { session, source } = await store.get(user);
process.stdout.write(JSON.stringify({ source, token: session.variables.token }) + '\n');
