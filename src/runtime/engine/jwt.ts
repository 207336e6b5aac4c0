/**
 * Decodes the payload (claims) of a JWS compact JWT without verifying its signature: only to read
 * `exp` for refresh timing, never to trust a claim. A leading `Bearer ` is ignored. Returns
 * `undefined` for anything that is not three dot-separated parts with a Base64url JSON object in
 * the middle (encrypted JWTs included).
 *
 * @see https://www.rfc-editor.org/rfc/rfc7519#section-7.2
 * @example
 * decodeJwtPayload('eyJhbGciOiJub25lIn0.eyJleHAiOjE3MDAwMDAwMDB9.'); // { exp: 1700000000 }
 */
export function decodeJwtPayload(token: string): Record<string, unknown> | undefined {
  // Only the middle part matters: whatever precedes the first dot (`Bearer `, spaces) is not read.
  // indexOf rather than trim and split, as this runs on every extracted value of every sign-in.
  const first = token.indexOf('.');
  const second = first === -1 ? -1 : token.indexOf('.', first + 1);
  if (second === -1 || token.includes('.', second + 1)) return undefined;
  const payload = token.slice(first + 1, second);
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(payload)) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return typeof claims === 'object' && claims !== null && !Array.isArray(claims)
      ? (claims as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
