// Takes a user's sign-in lock in Redis the way a shard's worker does, prints "held", and holds it
// until killed: what a shard killed in the middle of a sign-in leaves behind.
// Args: redisUrl configFile user lockTtlMs (DEMO_URL in the environment, as the shards have it).
// The lock's time to live is the test's: a shorter one than a shard's own 15 s spares the test the wait.
// Plain JavaScript on the built dist/ (what the shards run too): no tsx compiling src/ at start.
import { dirname } from 'node:path';
import { digestOf, FileBackend, openConfig } from '../../../dist/sessions/index.cjs';
import { RedisBackend } from '../../../dist/sessions/redis-backend.cjs';

const [url, file, user, lockTtlMs] = process.argv.slice(2);
const opened = await openConfig({ file, baseDir: dirname(file), env: process.env, notFoundHint: '' });
const digest = digestOf(opened, 'holder', true);
const key = digest.userKeys[digest.users.indexOf(user)];
const backend = new RedisBackend({ url, plaintext: true, fallback: new FileBackend({ dir: dirname(file) }), warn: (text) => process.stderr.write(text), lockTtlMs: Number(lockTtlMs) });
await backend.withLock(backend.slot(user, key), async () => {
  process.stdout.write('held\n');
  await new Promise(() => undefined);
});
