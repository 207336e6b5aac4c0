import { existsSync, readFileSync, rmSync } from 'node:fs';
import { isMultiAuthError, type MultiAuthError } from '../../src/core/errors.js';
import { expect, signIn, test } from './support.js';
import { planFromYaml } from '../support/plan.js';

const WRONG_PASSWORD = 'not-bobs-password-7Qz';

function wrongPasswordConfig(appUrl: string): string {
  return `
presets:
  - type: webdriver
    wait_for_seconds: 3
    users:
      - username: bob
        project:
          tests:
            - id: login-bob
              name: sign in as bob
              commands:
                - { id: c1, command: open, target: "${appUrl}/login" }
                - { id: c2, command: type, target: "id=username", value: bob }
                - { id: c3, command: type, target: "id=password", value: ${WRONG_PASSWORD} }
                - { id: c4, command: click, target: "css=button[type=submit]" }
                - { id: c5, command: waitForElementPresent, target: "css=[data-signed-in]", value: "2000" }
`;
}

test('a wrong password: the error names the test, command and target, keeps a screenshot, never shows the password', async ({ demo, browser }) => {
  const before = demo.counters;
  const error = await signIn(planFromYaml(wrongPasswordConfig(demo.url)), 'bob', browser).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isMultiAuthError(error)).toBe(true);
  const failure = error as MultiAuthError;
  expect(failure.code).toBe('BROWSER_STEP_FAILED');
  expect(failure.message).toContain('test "sign in as bob", command 5 (waitForElementPresent "css=[data-signed-in]")');
  expect(failure.message).toContain('no element matches the target within 2s');
  expect(failure.context).toMatchObject({ user: 'bob', procedure: 'preset[0]:webdriver:bob', step: 0, url: `${demo.url}/login` });

  const screenshot = /screenshot: (\S+\.png)$/.exec(failure.message)?.[1] ?? '';
  expect(existsSync(screenshot), screenshot).toBe(true);
  expect(readFileSync(screenshot).subarray(1, 4).toString('latin1')).toBe('PNG');
  rmSync(screenshot);

  const everything = [failure.message, failure.render(), JSON.stringify(failure.context), failure.hint ?? ''].join('\n');
  expect(everything).not.toContain(WRONG_PASSWORD);
  // The password was typed and posted, and refused.
  expect(demo.counters.endpoints['POST /login']).toBe((before.endpoints['POST /login'] ?? 0) + 1);
  expect(demo.counters.signIns.bob).toBe(before.signIns.bob);
});
