import type { NameValuesList } from '../plan.js';

/** How an OAuth client authenticates at the token endpoint: the preset's `client_auth`, or `none` (a public client). */
export type ClientAuthMethod = 'post' | 'basic' | 'none';

/** What client authentication adds to a token request. */
export interface ClientAuthentication {
  headers: NameValuesList[];
  /** Form parameters to add to the body. */
  body: Record<string, string>;
  /** Derived secret values (the Basic credentials), for the redactor. */
  secrets: string[];
}

/**
 * Client authentication of an RFC 6749 token request. `none`: `client_id` alone. `post` (`client_secret_post`, the default):
 * `client_id` and `client_secret` in the form body. `basic` (`client_secret_basic`):
 * `Authorization: Basic base64(urlencode(client_id) ":" urlencode(client_secret))`, each part
 * encoded with application/x-www-form-urlencoded first, as section 2.3.1 requires.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-2.3.1
 * @example
 * clientAuthentication('basic', 'my app', 's3:cret');
 * // { headers: [{ name: 'Authorization', values: ['Basic bXkrYXBwOnMzJTNBY3JldA=='] }], body: {}, secrets: [...] }
 */
export function clientAuthentication(method: ClientAuthMethod, clientId: string, clientSecret: string): ClientAuthentication {
  // A public client (RFC 6749 2.1) names itself and proves nothing: PKCE binds its code.
  if (method === 'none') return { headers: [], body: { client_id: clientId }, secrets: [] };
  if (method === 'post') {
    return { headers: [], body: { client_id: clientId, client_secret: clientSecret }, secrets: [clientSecret] };
  }
  const credentials = Buffer.from(`${formEncode(clientId)}:${formEncode(clientSecret)}`).toString('base64');
  return {
    headers: [{ name: 'Authorization', values: [`Basic ${credentials}`] }],
    body: {},
    secrets: [clientSecret, credentials],
  };
}

/** application/x-www-form-urlencoded encoding of one value (WHATWG serializer: space -> `+`). */
function formEncode(value: string): string {
  return new URLSearchParams([['', value]]).toString().slice(1);
}
