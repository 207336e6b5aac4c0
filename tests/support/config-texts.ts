// Config texts that several test folders feed to the config opener.

/** A config with a procedure named like the one the http preset compiles to: an error found only by compiling. */
export const RESERVED_PROCEDURE_CONFIG = `presets:
  - type: http
    request: { url: "http://127.0.0.1:9/token", method: POST, body: { u: "{{username}}", p: "{{password}}" } }
    extractions: [{ name: token, location: body, key: token }]
    injections: [{ location: header, key: Authorization, prefix: Bearer, variable: token }]
    users:
      - { username: alice, password: alice-password }
procedures:
  - name: "preset[0]:http"
    operations:
      - tech: http
        parameters: { url: "http://127.0.0.1:9/x", method: GET }
users: []
`;

/**
 * The demo server's form login as a generic procedure named `form-login` (the lines under
 * `procedures:`): it posts the user's username and password and injects the `sid` cookie the
 * server sets. `origin` is the demo's origin as the config writes it (`${DEMO_URL}` or a URL).
 */
export function formLoginProcedure(origin: string): string {
  return `  - name: form-login
    operations:
      - tech: http
        parameters:
          url: ${origin}/auth/form-login
          method: POST
          headers: [{ name: Content-Type, values: [application/x-www-form-urlencoded] }]
          body: "username={{username}}&password={{password}}"
          follow_redirects: 0
        extractions:
          - { name: sid, location: cookie, key: sid }
    injections:
      - { location: cookie, key: sid, variable: sid }
`;
}
