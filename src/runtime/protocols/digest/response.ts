import { createHash, randomBytes } from 'node:crypto';
import type { DigestAlgorithm, DigestChallenge } from './challenge.js';

/** What {@link digestAuthorization} needs to answer one challenge for one request. */
export interface DigestAnswerInput {
  challenge: DigestChallenge;
  username: string;
  password: string;
  /** The request's method, as sent. */
  method: string;
  /** The request-target: path and query of the request URL (see {@link digestUri}). */
  uri: string;
  /** Nonce count: 1 for the first request with this nonce, then 2, 3, ... */
  nc: number;
  /** Client nonce, fresh for every request (see {@link newCnonce}). */
  cnonce: string;
}

/**
 * Builds the `Authorization` header value answering a Digest challenge for one request.
 *
 * - HA1 = H(username:realm:password); for `-sess` algorithms H(HA1:nonce:cnonce).
 * - HA2 = H(method:uri) (qop `auth`).
 * - response = H(HA1:nonce:nc:cnonce:qop:HA2), or H(HA1:nonce:HA2) when the server offered no qop
 *   (RFC 2069); `nc` is 8 hex digits.
 * - `opaque` and `algorithm` are echoed; with `userhash=true` the username sent is H(username:realm).
 * - A username that is not plain ASCII is sent as `username*` (RFC 8187) unless it is hashed.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7616#section-3.4
 * @example
 * digestAuthorization({
 *   challenge: { realm: 'http-auth@example.org', nonce: '7ypf...', algorithm: 'SHA-256', qop: 'auth' },
 *   username: 'Mufasa', password: 'Circle of Life', method: 'GET', uri: '/dir/index.html',
 *   nc: 1, cnonce: newCnonce(),
 * });
 * // 'Digest username="Mufasa", realm="http-auth@example.org", uri="/dir/index.html", algorithm=SHA-256, ...'
 */
export function digestAuthorization(input: DigestAnswerInput): string {
  const { challenge, username, password, method, uri, cnonce } = input;
  const { algorithm, realm, nonce, qop } = challenge;
  const nc = formatNonceCount(input.nc);
  const hash = hasher(algorithm);
  let ha1 = hash(`${username}:${realm}:${password}`);
  if (algorithm.endsWith('-sess')) ha1 = hash(`${ha1}:${nonce}:${cnonce}`);
  const ha2 = hash(`${method}:${uri}`);
  const response = qop ? hash(`${ha1}:${nonce}:${nc}:${cnonce}:${qop}:${ha2}`) : hash(`${ha1}:${nonce}:${ha2}`);

  const parts: string[] = [];
  if (challenge.userhash) parts.push(`username=${quote(hash(`${username}:${realm}`))}`);
  else if (/^[\x20-\x7e]*$/.test(username)) parts.push(`username=${quote(username)}`);
  else parts.push(`username*=UTF-8''${encodeRfc8187(username)}`);
  parts.push(`realm=${quote(realm)}`, `uri=${quote(uri)}`, `algorithm=${algorithm}`, `nonce=${quote(nonce)}`);
  if (qop) parts.push(`nc=${nc}`, `cnonce=${quote(cnonce)}`, `qop=${qop}`);
  else if (algorithm.endsWith('-sess')) parts.push(`cnonce=${quote(cnonce)}`);
  parts.push(`response=${quote(response)}`);
  if (challenge.opaque !== undefined) parts.push(`opaque=${quote(challenge.opaque)}`);
  if (challenge.userhash) parts.push('userhash=true');
  return `Digest ${parts.join(', ')}`;
}

/**
 * A fresh client nonce: 128 random bits as hex (never reuse one across requests).
 *
 * @see https://www.rfc-editor.org/rfc/rfc7616#section-3.4
 * @example
 * newCnonce(); // 'f3a1c0...' (32 hex digits)
 */
export function newCnonce(): string {
  return randomBytes(16).toString('hex');
}

/**
 * The `uri` a digest answer signs: the request-target of the request line, i.e. the path and query
 * of the URL as it is sent (the fragment is never sent).
 *
 * @see https://www.rfc-editor.org/rfc/rfc7616#section-3.4
 * @example
 * digestUri('http://127.0.0.1:8080/dir/index.html?a=1#top'); // '/dir/index.html?a=1'
 */
export function digestUri(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/**
 * The nonce count as the 8 hex digits RFC 7616 sends.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7616#section-3.4
 * @example
 * formatNonceCount(1); // '00000001'
 */
export function formatNonceCount(nc: number): string {
  if (!Number.isInteger(nc) || nc < 1 || nc > 0xffffffff) throw new RangeError(`nonce count out of range: ${nc}`);
  return nc.toString(16).padStart(8, '0');
}

function hasher(algorithm: DigestAlgorithm): (text: string) => string {
  const name = algorithm.startsWith('SHA-256') ? 'sha256' : 'md5';
  return (text) => createHash(name).update(text, 'utf8').digest('hex');
}

function quote(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}

function encodeRfc8187(value: string): string {
  return encodeURIComponent(value).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
