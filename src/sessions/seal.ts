import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { MultiAuthError } from '../core/errors.js';

/** What sealed text starts with: the format, so a later one can be told apart. */
const PREFIX = 'mas1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals and opens stored sessions with AES-256-GCM (`MULTIAUTH_CACHE_KEY`): each value gets a
 * fresh 96-bit IV, and the name it is stored under as associated data, so a sealed session moved
 * to another user's slot does not open. Opening anything else (another key, a plaintext value,
 * tampered bytes) gives `undefined`: no cached session, a new sign-in, never a crash.
 *
 * @example
 * const sealer = sealerFromEnv(process.env); // undefined without MULTIAUTH_CACHE_KEY
 * const text = sealer.seal(JSON.stringify(session), 'alice-1f2e3d4c5b6a7988');
 * sealer.open(text, 'alice-1f2e3d4c5b6a7988'); // the JSON again
 */
export class Sealer {
  constructor(private readonly key: Buffer) {}

  /** `mas1.<iv>.<tag>.<ciphertext>`, each base64url. */
  seal(plaintext: string, name: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(name));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${PREFIX}${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${body.toString('base64url')}`;
  }

  /** The plaintext, or undefined when `sealed` was not sealed with this key for this name. */
  open(sealed: unknown, name: string): string | undefined {
    if (typeof sealed !== 'string' || !sealed.startsWith(PREFIX)) return undefined;
    const [iv, tag, body] = sealed.slice(PREFIX.length).split('.').map((part) => Buffer.from(part, 'base64url'));
    if (!iv || !tag || !body || iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
      decipher.setAAD(Buffer.from(name));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}

/**
 * The sealer of `MULTIAUTH_CACHE_KEY`: 32 random bytes, base64 (`openssl rand -base64 32`), or 64
 * hex digits. Undefined when the variable is unset or empty.
 *
 * @throws MultiAuthError `SESSION_CACHE` when it is set but is not 32 bytes in either form (a key
 *   that is not what the user thinks must not silently turn caching into plaintext).
 * @example
 * sealerFromEnv({ MULTIAUTH_CACHE_KEY: 'q83vEjR...=' });
 */
export function sealerFromEnv(env: Record<string, string | undefined>): Sealer | undefined {
  const text = env.MULTIAUTH_CACHE_KEY?.trim();
  if (!text) return undefined;
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : /^[A-Za-z0-9+/_-]+={0,2}$/.test(text) ? Buffer.from(text, 'base64') : undefined;
  if (!key || key.length !== 32) {
    throw new MultiAuthError('SESSION_CACHE', 'MULTIAUTH_CACHE_KEY is not a 32-byte key', {
      hint: 'Set it to 32 random bytes in base64 (`openssl rand -base64 32`) or 64 hex digits; the same value on every machine that shares the sessions.',
    });
  }
  return new Sealer(key);
}
