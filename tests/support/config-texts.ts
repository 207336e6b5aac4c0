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
