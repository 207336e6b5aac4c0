import { test, expect } from '@playwright/test';
import { runMain } from '../support/cli-in-process.js';
import { writeTempConfig } from '../support/temp-files.js';

// Template expressions are checked before anything is sent: an unknown function, a wrong number of
// arguments and an unclosed string are each a located error, and none prints what the template holds.
const CONFIG = `procedures:
  - name: login
    operations:
      - tech: http
        parameters:
          url: https://app.example.test/login
          method: POST
          headers: [{ name: Authorization, values: "{{ basci(username, password) }}" }]
          body: { otp: "{{ totp() }}", note: "{{ 'k3pt-s3cret }}" }
users:
  - name: alice
    procedure: login
    credentials: { username: alice, password: s3cret }
`;

test('validate locates bad template expressions', async () => {
  const config = writeTempConfig(CONFIG);
  try {
    const run = await runMain(['validate', '-c', config.file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('multiauth.yaml:8:52  procedures[0].operations[0].parameters.headers[0].values[0]: invalid template {{ }}: unknown function basci() (the functions are base64(), base64url(), urlencode(), basic(), totp(), uuid(), now(), webauthn_assertion())');
    expect(run.stderr).toContain('multiauth.yaml:9:24  procedures[0].operations[0].parameters.body.otp: invalid template {{ }}: totp() takes 1 to 4 arguments (totp(secret[, digits, period, algorithm])), got 0');
    expect(run.stderr).toContain('multiauth.yaml:9:46  procedures[0].operations[0].parameters.body.note: invalid template {{ }}: a string is not closed at character 2 of the expression');
    expect(run.stderr).not.toContain('k3pt-s3cret');
    expect(run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  } finally {
    config.remove();
  }
});

test('an unclosed {{ is a located error, found in linear time even 80,000 times over', async () => {
  const config = writeTempConfig(`procedures:
  - name: login
    operations:
      - tech: http
        parameters:
          url: "https://app.example.test/login?code={{ code"
          method: POST
          body: { pin: "k3pt-s3cret {{ pin", many: "${'{{'.repeat(80_000)}" }
users:
  - name: alice
    procedure: login
    credentials: { username: alice, password: s3cret }
`);
  try {
    const started = performance.now();
    const run = await runMain(['validate', '-c', config.file]);
    // 10 s (36 s on a loaded machine) when each {{ was scanned to the end of the text.
    expect(performance.now() - started).toBeLessThan(8_000);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('multiauth.yaml:6:16  procedures[0].operations[0].parameters.url: invalid template {{ }}: a {{ at character 37 is not closed by }}');
    expect(run.stderr).toContain('multiauth.yaml:8:24  procedures[0].operations[0].parameters.body.pin: invalid template {{ }}: a {{ at character 13 is not closed by }}');
    expect(run.stderr).toContain('procedures[0].operations[0].parameters.body.many: invalid template {{ }}: a {{ at character 1 is not closed by }}');
    expect(run.stderr).toContain('\n    Close the expression with }}.');
    expect(run.stderr).not.toContain('k3pt-s3cret');
  } finally {
    config.remove();
  }
});
