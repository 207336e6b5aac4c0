import { MultiAuthError } from '../../core/errors.js';
import { newPasskeyCredential, passkeyPublicKey, type PasskeyKeyMaterial } from '../../core/webauthn/index.js';
import { publicKeyForms, type PublicKeyForms } from '../../core/webauthn/cose.js';
import type { Command } from '../command.js';
import { passkeyUsage } from './usage/passkey.js';
import { ExitCode } from '../io.js';
import { jsonText } from '../json-output.js';

/** A DNS name or an IPv4 address, as rp ids are: labels of letters, digits and hyphens. */
const RP_ID_PATTERN = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const MAX_USER_CHARS = 100;

/**
 * `multiauth passkey new --rp-id ID [--user NAME] [--json]`: a new ES256 passkey for test data.
 * Prints `.env` lines (`ALICE_PASSKEY_ID=...` for `--user alice`, `PASSKEY_ID=...` without) for the
 * user's `passkey:`, the `passkey:` block that reads them, and the public key in the forms relying
 * parties store (COSE, JWK, SPKI) as comments, so that the whole output can be appended to `.env`;
 * `--json`: `{"ok": true, rp_id, id, user_handle, private_key, public_key, public_key_cose,
 * public_key_jwk}`. The private key is printed because the user asked for a new key; nothing else
 * of the package ever prints one.
 *
 * @example
 * await main(['passkey', 'new', '--rp-id', 'app.example.com', '--user', 'alice'], io);
 * // # passkey of alice for app.example.com ... \n ALICE_PASSKEY_RP_ID=app.example.com \n ...
 */
export const passkeyCommand: Command = {
  ...passkeyUsage,
  async run({ values, positionals, io }) {
    if (positionals[0] !== 'new') throw usage(`unknown subcommand "${positionals[0]}" (passkey has one: new)`);
    const rpId = values['rp-id'];
    if (typeof rpId !== 'string' || rpId === '') throw usage('--rp-id is required');
    if (!RP_ID_PATTERN.test(rpId)) throw usage(`--rp-id "${rpId}" is not a host name (an rp id is the site's host, without scheme, port or path)`);
    const user = typeof values.user === 'string' ? values.user : undefined;
    const prefix = user === undefined ? 'PASSKEY' : `${envPrefix(user)}_PASSKEY`;
    const key = newPasskeyCredential({ rpId });
    const forms = publicKeyForms(passkeyPublicKey(key.public_key));
    if (values.json) {
      io.stdout.write(jsonText({ ok: true, ...key, public_key_cose: forms.cose, public_key_jwk: forms.jwk }));
    } else {
      io.stdout.write(envText(key, forms, prefix, user));
    }
    return ExitCode.OK;
  },
};

/** `alice` -> `ALICE`, `qa-admin.2` -> `QA_ADMIN_2`: an environment variable name's part. */
function envPrefix(user: string): string {
  if (user.length > MAX_USER_CHARS) throw usage(`--user is ${user.length} characters long; at most ${MAX_USER_CHARS}`);
  const name = user.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  if (name === '') throw usage(`--user "${user}" has no letter or digit to name the variables after`);
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

function envText(key: PasskeyKeyMaterial, forms: PublicKeyForms, prefix: string, user: string | undefined): string {
  const fields = ['rp_id', 'id', 'user_handle', 'private_key', 'public_key'] as const;
  const variable = (field: (typeof fields)[number]): string => `${prefix}_${field.toUpperCase()}`;
  return [
    `# passkey${user === undefined ? '' : ` of ${user}`} for ${key.rp_id} (ES256), made by multiauth passkey new`,
    '# PRIVATE KEY below: keep these lines out of version control, as every secret of .env.',
    ...fields.map((field) => `${variable(field)}=${key[field]}`),
    '#',
    '# multiauth.yaml, under the user:',
    '#   passkey:',
    ...fields.map((field) => `#     ${field}: \${${variable(field)}}`),
    '#',
    '# public key for the relying party to enrol (credential id above):',
    `#   COSE (base64url): ${forms.cose}`,
    `#   JWK: ${JSON.stringify(forms.jwk)}`,
    `#   SPKI (DER, base64url): ${forms.spki}`,
    '',
  ].join('\n');
}

function usage(message: string): MultiAuthError {
  return new MultiAuthError('CLI_USAGE', message, { hint: 'multiauth passkey --help shows the options.' });
}
