import { createPublicKey } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { parse } from 'yaml';

// The demo server forgets its passkeys when it stops: enrol alice's (multiauth.yaml) before the run,
// as a real app's test data would. COSE_Key (RFC 9052) of the P-256 public key: the relying party's form.
export default async function globalSetup(): Promise<void> {
  // The demo server starts empty every run: the passkey dave registered last time, and the counters,
  // are gone there, so they go here too. A real app keeps them, and so would .auth/.
  rmSync(new URL('./.auth', import.meta.url), { recursive: true, force: true });
  const config = parse(readFileSync(new URL('./multiauth.yaml', import.meta.url), 'utf8')) as {
    presets: Array<{ users: Array<{ username: string; passkey?: { id: string; user_handle: string; public_key: string } | string }> }>;
  };
  for (const user of config.presets.flatMap((preset) => preset.users)) {
    if (typeof user.passkey !== 'object') continue;
    const jwk = createPublicKey({ key: Buffer.from(user.passkey.public_key, 'base64url'), format: 'der', type: 'spki' }).export({ format: 'jwk' });
    const cose = Buffer.concat([
      Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]), Buffer.from(jwk.x as string, 'base64url'),
      Buffer.from([0x22, 0x58, 0x20]), Buffer.from(jwk.y as string, 'base64url'),
    ]);
    const response = await fetch(`${process.env.DEMO_URL}/passkeys/test/enrol`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: user.username, id: user.passkey.id, user_handle: user.passkey.user_handle, public_key_cose: cose.toString('base64url') }),
    });
    if (!response.ok) throw new Error(`enrolling ${user.username}'s passkey: HTTP ${response.status}`);
  }
}
