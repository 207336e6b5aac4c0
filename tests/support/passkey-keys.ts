import { generateKeyPairSync, randomBytes } from 'node:crypto';

/** A P-256 passkey made for a test: what `passkey:` takes, and the COSE public key a relying party enrols. */
export interface TestPasskey {
  id: string;
  userHandle: string;
  privateKey: string;
  publicKey: string;
  /** COSE_Key (RFC 9052 7, EC2 P-256 ES256), base64url: what `/passkeys/test/enrol` takes. */
  cose: string;
}

/**
 * A fresh ES256 passkey: PKCS#8 and SPKI DER in base64url (Playwright's shape), plus its COSE key,
 * encoded here by hand (a five-entry CBOR map), so tests need no CLI to enrol it.
 *
 * @example
 * const key = testPasskey();
 * await fetch(`${demo.url}/passkeys/test/enrol`, { method: 'POST', body: JSON.stringify({ username: 'alice', id: key.id, public_key_cose: key.cose }) });
 */
export function testPasskey(): TestPasskey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x as string, 'base64url');
  const y = Buffer.from(jwk.y as string, 'base64url');
  // {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}
  const cose = Buffer.concat([Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]), x, Buffer.from([0x22, 0x58, 0x20]), y]);
  return {
    id: randomBytes(16).toString('base64url'),
    userHandle: randomBytes(16).toString('base64url'),
    privateKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64url'),
    publicKey: publicKey.export({ format: 'der', type: 'spki' }).toString('base64url'),
    cose: cose.toString('base64url'),
  };
}

/**
 * Enrols `key` for `username` at the demo server's passkey relying party (`counter`: the one it
 * starts from).
 *
 * @example
 * await enrolPasskey(demo.url, 'alice', testPasskey());
 */
export async function enrolPasskey(demoUrl: string, username: string, key: TestPasskey, counter = 0): Promise<void> {
  const response = await fetch(`${demoUrl}/passkeys/test/enrol`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, id: key.id, public_key_cose: key.cose, user_handle: key.userHandle, counter }),
  });
  if (!response.ok) throw new Error(`enrol: HTTP ${response.status} ${await response.text()}`);
}

/** The counter the demo's relying party keeps for credential `id`. */
export async function serverCounter(demoUrl: string, username: string, id: string): Promise<number | undefined> {
  const body = (await (await fetch(`${demoUrl}/passkeys/test/credentials?username=${encodeURIComponent(username)}`)).json()) as { credentials: Array<{ id: string; counter: number }> };
  return body.credentials.find((c) => c.id === id)?.counter;
}

/**
 * A webdriver preset user's YAML that signs in at the demo's passkey page: usernameless, or
 * username-first when `typed` is given; ends when the app page loaded, or fails after `waitMs`
 * (a user whose sign-in must fail need not wait long).
 */
export function passkeyLoginProject(demoUrl: string, typed?: string, waitMs = 5000): string {
  return `{ tests: [{ id: t, name: passkey, commands: [
          { id: c1, command: open, target: "${demoUrl}/passkeys/login" },
          ${typed === undefined ? '' : `{ id: c2, command: type, target: "id=username", value: "${typed}" },`}
          { id: c3, command: click, target: "id=passkey-sign-in" },
          { id: c4, command: waitForElementPresent, target: "css=#status[data-signed-in]", value: "${waitMs}" } ] }] }`;
}
