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
  // Issue 24: the form came back with its error; the command stops waiting and quotes it.
  expect(failure.message).toContain('the sign-in form is shown again with an error: "Wrong username or password."');
  expect(failure.hint).toMatch(/^The server answered the sign-in with its form again: the credentials were probably refused/);
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

/** A recorded login at the demo's Django-like form, which answers a wrong password with 200 and the form again. */
function refusingConfig(appUrl: string, password: string, last = '{ id: c5, command: waitForElementPresent, target: "id=welcome" }'): string {
  return `
presets:
  - type: webdriver
    wait_for_seconds: 15
    users:
      - username: alice
        project:
          tests:
            - id: login-alice
              name: sign in as alice
              commands:
                - { id: c1, command: open, target: "${appUrl}/refusing/login" }
                - { id: c2, command: type, target: "id=id_username", value: alice }
                - { id: c3, command: type, target: "id=id_password", value: ${password} }
                - { id: c4, command: click, target: "id=login-submit" }
                - ${last}
`;
}

test('a recorded login refused with 200 and the form again stops waiting at once and quotes the form\'s error', async ({ demo, browser }) => {
  for (const last of [
    '{ id: c5, command: waitForElementPresent, target: "id=welcome" }',
    '{ id: c5, command: click, target: "id=welcome" }',
  ]) {
    const started = Date.now();
    const error = await signIn(planFromYaml(refusingConfig(demo.url, WRONG_PASSWORD, last)), 'alice', browser).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    const failure = error as MultiAuthError;
    expect(failure.code).toBe('BROWSER_STEP_FAILED');
    expect(failure.message).toContain('command 5');
    expect(failure.message).toContain('the sign-in form is shown again with an error: "Please enter the correct username and password"');
    // Well before the command's 15 s.
    expect(Date.now() - started).toBeLessThan(8000);
    expect([failure.message, failure.render()].join('\n')).not.toContain(WRONG_PASSWORD);
    rmSync(/screenshot: (\S+\.png)$/.exec(failure.message)?.[1] ?? '', { force: true });
  }
  const { session } = await signIn(planFromYaml(refusingConfig(demo.url, 'alice-password')), 'alice', browser);
  expect(session.cookies.map((c) => c.name)).toContain('sessionid');
});

test('a recorded step that fails on a page with an error message quotes it', async ({ demo, browser }) => {
  // No POST: the watcher stays quiet; the command fails on its time, and the error quotes the page.
  const config = refusingConfig(demo.url, WRONG_PASSWORD, '{ id: c5, command: waitForElementPresent, target: "id=welcome", value: "1500" }')
    .replace('{ id: c4, command: click, target: "id=login-submit" }', '{ id: c4, command: executeScript, target: "document.body.insertAdjacentHTML(\'afterbegin\', \'<p class=flash-error>Account locked</p>\')" }');
  const failure = (await signIn(planFromYaml(config), 'alice', browser).catch((caught: unknown) => caught)) as MultiAuthError;
  expect(failure.code).toBe('BROWSER_STEP_FAILED');
  expect(failure.message).toContain('no element matches the target within 1.5s');
  expect(failure.message).toContain('the page says: "Account locked"');
  rmSync(/screenshot: (\S+\.png)$/.exec(failure.message)?.[1] ?? '', { force: true });
});
