import { expect } from '@playwright/test';
import { parse } from 'dotenv';
import { main, type CliIo } from '../../src/cli/main.js';
import { signAssertion } from '../../src/core/webauthn/index.js';
import { runCliAsync, STACK_FRAME } from '../support/cli.js';
import { test } from '../support/demo.js';

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, env: {}, cwd: process.cwd() };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

/** Enrols a COSE key in the demo relying party, then signs in over HTTP with the private key: the pair works. */
async function signsIn(url: string, username: string, key: { id: string; user_handle: string; private_key: string; rp_id: string }, cose: string): Promise<unknown> {
  const post = async (path: string, body: unknown) =>
    (await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<Record<string, unknown>>;
  expect(await post('/passkeys/test/enrol', { username, id: key.id, public_key_cose: cose, user_handle: key.user_handle })).toMatchObject({ enrolled: true });
  const options = await post('/api/passkeys/options', { username });
  return post('/api/passkeys/verify', signAssertion({ key, challenge: options.challenge as string, origin: url, counter: 1 }));
}

test('passkey new (built CLI): .env lines named after the user that dotenv reads, and a COSE key the relying party enrols', async ({ demo }) => {
  const run = await runCliAsync(['passkey', 'new', '--rp-id', '127.0.0.1', '--user', 'qa-alice']);
  expect(run).toMatchObject({ code: 0, stderr: '' });
  const env = parse(run.stdout);
  expect(Object.keys(env)).toEqual(['QA_ALICE_PASSKEY_RP_ID', 'QA_ALICE_PASSKEY_ID', 'QA_ALICE_PASSKEY_USER_HANDLE', 'QA_ALICE_PASSKEY_PRIVATE_KEY', 'QA_ALICE_PASSKEY_PUBLIC_KEY']);
  expect(run.stdout).toContain('#     private_key: ${QA_ALICE_PASSKEY_PRIVATE_KEY}');
  const cose = /^# {3}COSE \(base64url\): (\S+)$/m.exec(run.stdout)?.[1];
  expect(run.stdout).toMatch(/^# {3}JWK: \{"kty":"EC","crv":"P-256","x":"[\w-]{43}","y":"[\w-]{43}"\}$/m);
  expect(run.stdout).toContain(`#   SPKI (DER, base64url): ${env.QA_ALICE_PASSKEY_PUBLIC_KEY}`);
  const key = { rp_id: env.QA_ALICE_PASSKEY_RP_ID!, id: env.QA_ALICE_PASSKEY_ID!, user_handle: env.QA_ALICE_PASSKEY_USER_HANDLE!, private_key: env.QA_ALICE_PASSKEY_PRIVATE_KEY! };
  expect(await signsIn(demo.url, 'alice', key, cose!)).toMatchObject({ user: 'alice', counter: 1 });
});

test('passkey new --json: the documented fields; the COSE key enrolled signs in; each run a new key', async ({ demo }) => {
  const run = await cli(['passkey', 'new', '--rp-id', '127.0.0.1', '--json']);
  expect(run.code).toBe(0);
  const out = JSON.parse(run.stdout) as Record<string, string>;
  expect(Object.keys(out)).toEqual(['ok', 'rp_id', 'id', 'user_handle', 'private_key', 'public_key', 'public_key_cose', 'public_key_jwk']);
  expect(out).toMatchObject({ ok: true, rp_id: '127.0.0.1', public_key_jwk: { kty: 'EC', crv: 'P-256' } });
  expect(await signsIn(demo.url, 'bob', out as never, out.public_key_cose!)).toMatchObject({ user: 'bob' });
  const again = JSON.parse((await cli(['passkey', 'new', '--rp-id', '127.0.0.1', '--json'])).stdout) as Record<string, string>;
  expect(again.private_key).not.toBe(out.private_key);
  expect(again.id).not.toBe(out.id);
  const plain = await cli(['passkey', 'new', '--rp-id', 'app.example.com']);
  expect(Object.keys(parse(plain.stdout))).toEqual(['PASSKEY_RP_ID', 'PASSKEY_ID', 'PASSKEY_USER_HANDLE', 'PASSKEY_PRIVATE_KEY', 'PASSKEY_PUBLIC_KEY']);
});

test('passkey usage mistakes: exit 2 with a CLI_USAGE error and a fix, no stack; no key printed', async () => {
  for (const [args, message] of [
    [['passkey', 'new'], '--rp-id is required'],
    [['passkey', 'new', '--rp-id', 'https://app.example.com/'], '--rp-id "https://app.example.com/" is not a host name'],
    [['passkey', 'new', '--rp-id', 'app.example.com:8443'], 'is not a host name'],
    [['passkey', 'old', '--rp-id', 'x.test'], 'unknown subcommand "old" (passkey has one: new)'],
    [['passkey', 'new', '--rp-id', 'x.test', '--user=..'], 'has no letter or digit'],
    [['passkey', 'new', '--rp-id', 'x.test', '--user', 'u'.repeat(101)], 'at most 100'],
  ] as const) {
    const run = await cli([...args]);
    expect(run.code, args.join(' ')).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain('Recommended fix: multiauth passkey --help shows the options.');
    expect(run.stderr).not.toMatch(STACK_FRAME);
    expect(run.stdout).not.toContain('PRIVATE');
  }
  const json = await cli(['passkey', 'new', '--json']);
  expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: 'CLI_USAGE', message: '--rp-id is required' } });
  const help = await cli(['passkey', '--help']);
  expect(help.stdout).toContain('Usage: multiauth passkey new --rp-id ID [--user NAME] [--json]');
  expect(help.stdout).toContain('PRIVATE KEY');
});
