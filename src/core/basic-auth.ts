/**
 * An HTTP Basic `Authorization` header value: `Basic ` + Base64 of the UTF-8 `username:password`.
 *
 * @see https://www.rfc-editor.org/rfc/rfc7617#section-2
 * @example
 * basicAuthorization('alice', 'secret'); // 'Basic YWxpY2U6c2VjcmV0'
 */
export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}`;
}
