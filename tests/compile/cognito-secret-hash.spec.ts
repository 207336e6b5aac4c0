import { test, expect } from '@playwright/test';
import { cognitoSecretHash } from '../../src/compile/index.js';

// Vectors computed independently with openssl, e.g. for the first one:
//   printf '%s' "aliceclient123" | openssl dgst -sha256 -hmac "secretXYZ" -binary | base64
const VECTORS = [
  { username: 'alice', clientId: 'client123', secret: 'secretXYZ', hash: 'e3/awMsXtu87ExJvFOO4hkzRIRQoMP3U0NPJPsVgJHQ=' },
  {
    username: 'user@example.com',
    clientId: '4kd1n0v7o2d3e4f5g6h7i8j9k0',
    secret: '1q2w3e4r5t6y7u8i9o0p1a2s3d4f5g6h7j8k9l0z1x2c3v4b5n6',
    hash: 'SJOhmac9oa0sNCHwZqKvyP59TsrQDwkQPdRgCwIlMjQ=',
  },
  // UTF-8 user name: printf '%s' "jürgenc" | openssl dgst -sha256 -hmac "s3cr3t" -binary | base64
  { username: 'jürgen', clientId: 'c', secret: 's3cr3t', hash: 'lfI27AnnGLErEPvUo5c6MZENrb3PbtvdldP0StJWKdA=' },
];

for (const v of VECTORS) {
  test(`SECRET_HASH of ${v.username} matches openssl`, () => {
    expect(cognitoSecretHash(v.username, v.clientId, v.secret)).toBe(v.hash);
  });
}

test('the message is username + client id, keyed by the secret (order matters)', () => {
  expect(cognitoSecretHash('client123', 'alice', 'secretXYZ')).not.toBe(VECTORS[0]!.hash);
  expect(cognitoSecretHash('alice', 'client123', 'other')).not.toBe(VECTORS[0]!.hash);
});
