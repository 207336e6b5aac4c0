import { test, expect } from '@playwright/test';
import { createHash } from 'node:crypto';
import type { DigestChallenge } from '../../../../src/runtime/protocols/digest/challenge.js';
import { digestAuthorization, digestUri, formatNonceCount, newCnonce } from '../../../../src/runtime/protocols/digest/response.js';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** RFC 7616 section 3.9.1. */
const rfc = {
  realm: 'http-auth@example.org',
  nonce: '7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v',
  opaque: 'FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS',
  cnonce: 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ',
};
const request = { username: 'Mufasa', password: 'Circle of Life', method: 'GET', uri: '/dir/index.html', nc: 1, cnonce: rfc.cnonce };
const challenge = (over: Partial<DigestChallenge>): DigestChallenge => ({
  realm: rfc.realm, nonce: rfc.nonce, opaque: rfc.opaque, algorithm: 'MD5', qop: 'auth', ...over,
});

test('RFC 7616 3.9.1, MD5: the exact Authorization header of the RFC', () => {
  expect(digestAuthorization({ ...request, challenge: challenge({ algorithm: 'MD5' }) })).toBe(
    'Digest username="Mufasa", realm="http-auth@example.org", uri="/dir/index.html", algorithm=MD5, ' +
      'nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", nc=00000001, cnonce="f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ", ' +
      'qop=auth, response="8ca523f5e9506fed4657c9700eebdbec", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"',
  );
});

test('RFC 7616 3.9.1, SHA-256: the response of the RFC', () => {
  const header = digestAuthorization({ ...request, challenge: challenge({ algorithm: 'SHA-256' }) });
  expect(header).toContain('algorithm=SHA-256,');
  expect(header).toContain('response="753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"');
});

test('RFC 2617 3.5 example (MD5, qop auth)', () => {
  const header = digestAuthorization({
    challenge: { realm: 'testrealm@host.com', nonce: 'dcd98b7102dd2f0e8b11d0f600bfb0c093', algorithm: 'MD5', qop: 'auth', opaque: '5ccc069c403ebaf9f0171e9517f40e41' },
    username: 'Mufasa', password: 'Circle Of Life', method: 'GET', uri: '/dir/index.html', nc: 1, cnonce: '0a4f113b',
  });
  expect(header).toContain('response="6629fae49393a05397450978507c4ef1"');
});

test('RFC 2069 (no qop): response = H(HA1:nonce:HA2), no nc, cnonce or qop sent', () => {
  const header = digestAuthorization({
    challenge: { realm: 'testrealm@host.com', nonce: 'dcd98b7102dd2f0e8b11d0f600bfb0c093', algorithm: 'MD5' },
    username: 'Mufasa', password: 'CircleOfLife', method: 'GET', uri: '/dir/index.html', nc: 1, cnonce: 'unused',
  });
  const expected = md5(`${md5('Mufasa:testrealm@host.com:CircleOfLife')}:dcd98b7102dd2f0e8b11d0f600bfb0c093:${md5('GET:/dir/index.html')}`);
  expect(expected).toBe('1949323746fe6a43ef61f9606e7febea');
  expect(header).toBe(
    'Digest username="Mufasa", realm="testrealm@host.com", uri="/dir/index.html", algorithm=MD5, ' +
      `nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", response="${expected}"`,
  );
});

test('-sess algorithms hash HA1 again with the nonce and cnonce', () => {
  for (const [algorithm, hash] of [['MD5-sess', md5], ['SHA-256-sess', sha256]] as const) {
    const header = digestAuthorization({ ...request, nc: 2, challenge: challenge({ algorithm }) });
    const ha1 = hash(`${hash(`Mufasa:${rfc.realm}:Circle of Life`)}:${rfc.nonce}:${rfc.cnonce}`);
    const response = hash(`${ha1}:${rfc.nonce}:00000002:${rfc.cnonce}:auth:${hash('GET:/dir/index.html')}`);
    expect(header).toContain(`algorithm=${algorithm},`);
    expect(header).toContain(`nc=00000002`);
    expect(header).toContain(`response="${response}"`);
  }
});

test('-sess without qop still sends the cnonce it hashed', () => {
  const header = digestAuthorization({ ...request, challenge: { realm: 'r', nonce: 'n', algorithm: 'MD5-sess' } });
  expect(header).toContain(`cnonce="${rfc.cnonce}"`);
  expect(header).not.toContain('nc=');
  expect(header).not.toContain('qop=');
});

test('userhash: the username sent is H(username:realm), userhash=true, HA1 still uses the name', () => {
  const header = digestAuthorization({ ...request, challenge: challenge({ algorithm: 'SHA-256', userhash: true }) });
  expect(header).toContain(`username="${sha256(`Mufasa:${rfc.realm}`)}"`);
  expect(header).toContain('userhash=true');
  expect(header).toContain('response="753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"');
});

test('a non-ASCII username goes as username* (RFC 7616 3.9.2), quotes in values are escaped', () => {
  const header = digestAuthorization({ ...request, username: 'Jäsøn Doe', challenge: challenge({ realm: 'say "hi"' }) });
  expect(header).toContain(`username*=UTF-8''J%C3%A4s%C3%B8n%20Doe,`);
  expect(header).not.toContain('username="');
  expect(header).toContain('realm="say \\"hi\\""');
});

test('uri is the path and query of the URL; nc is 8 hex digits; cnonces are fresh', () => {
  expect(digestUri('http://127.0.0.1:8080/dir/index.html?a=1&b=%20#frag')).toBe('/dir/index.html?a=1&b=%20');
  expect(digestUri('http://example.test')).toBe('/');
  expect(formatNonceCount(1)).toBe('00000001');
  expect(formatNonceCount(255)).toBe('000000ff');
  expect(() => formatNonceCount(0)).toThrow(RangeError);
  const a = newCnonce();
  expect(a).toMatch(/^[0-9a-f]{32}$/);
  expect(newCnonce()).not.toBe(a);
});
