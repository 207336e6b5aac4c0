// One of the processes of the contention row (bench/scale.ts): a stand-in Playwright worker that asks
// the file store of a shared cache directory for every user at once, signing in through the bench's
// counting token server when the store has no session, and prints how it got each one.
// Plain JavaScript, so that no loader (tsx) weighs on its start.
// usage: node bench/scale-worker.mjs <dist dir> <cache dir> <token URL> <user>...
const [dist, dir, tokenUrl, ...users] = process.argv.slice(2);
const { request } = await import('undici');
// The store's own module: a worker whose sessions are cached loads no more than this.
const { SessionStore } = await import(new URL('sessions/session-store.js', `file://${dist}/`).href);

const store = new SessionStore(
  { dir, scopeKey: 'scale-bench' },
  {
    async signIn(user) {
      const response = await request(tokenUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ user }) });
      const { access_token: token, expires_in: seconds } = await response.body.json();
      if (response.statusCode !== 200) throw new Error(`sign-in of ${user}: HTTP ${response.statusCode}`);
      const now = Date.now();
      return {
        user, headers: { Authorization: [`Bearer ${token}`] }, cookies: [], query: {}, body: { set: {} }, origins: [],
        createdAt: now, expiresAt: now + seconds * 1000, variables: { access_token: token }, origin: 'signed-in',
      };
    },
    refresh: () => Promise.reject(new Error('no session of the bench expires')),
  },
);
// In a shuffled order, as the tests of fifty workers ask for them.
const order = [...users].sort(() => Math.random() - 0.5);
const sources = await Promise.all(order.map(async (user) => [user, (await store.get(user)).source]));
process.stdout.write(`${JSON.stringify(Object.fromEntries(sources))}\n`);
