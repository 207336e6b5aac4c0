import type { CommandUsage } from '../../command.js';

/** What `multiauth help` shows of `passkey` and what its command line is parsed against; `../passkey.ts` runs it. */
export const passkeyUsage: CommandUsage = {
  name: 'passkey',
  summary: 'print a new passkey (ES256) as .env lines and its public key for the relying party',
  arguments: 'new --rp-id ID [--user NAME] [--json]',
  description:
    'Makes a new passkey (ECDSA P-256, ES256) for a test user and prints it as .env lines (append them to\n' +
    'the .env beside multiauth.yaml), the passkey: block of multiauth.yaml that reads them, and the public\n' +
    'key in the forms relying parties store (COSE, JWK, SPKI), so that test data can enrol it.\n' +
    'The output holds the PRIVATE KEY: it is printed only here, because you asked for a new key.',
  options: {
    'rp-id': { type: 'string', valueName: 'ID', description: 'the relying party id: the site\'s host name (app.example.com, 127.0.0.1)' },
    user: { type: 'string', valueName: 'NAME', description: 'the user it is for: names the variables (alice -> ALICE_PASSKEY_ID ...)' },
    json: { type: 'boolean', description: 'print {"ok": true, "rp_id", "id", "user_handle", "private_key", "public_key", "public_key_cose", "public_key_jwk"}' },
  },
  positionals: { min: 1, max: 1 },
};
