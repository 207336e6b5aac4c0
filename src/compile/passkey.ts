import type { PasskeySetting } from '../config/index.js';
import type { ConfigPath } from '../core/path.js';
import type { PlanPasskey } from './plan.js';

/**
 * A user's `passkey` as the plan holds it: `register`, or the credential in the camelCase shape
 * Playwright's `context.credentials.create` takes, the counter defaulting to 0.
 *
 * @example
 * planPasskey('register', ['users', 0, 'passkey']); // { kind: 'register', origin: [...] }
 * planPasskey({ rp_id: 'app.test', id: 'aWQ', user_handle: 'dQ', private_key: 'k', public_key: 'p' }, origin).signCount; // 0
 */
export function planPasskey(setting: PasskeySetting, origin: ConfigPath): PlanPasskey {
  if (setting === 'register') return { kind: 'register', origin };
  return {
    kind: 'seeded',
    rpId: setting.rp_id,
    id: setting.id,
    userHandle: setting.user_handle,
    privateKey: setting.private_key,
    publicKey: setting.public_key,
    signCount: setting.sign_count ?? 0,
    origin,
  };
}
