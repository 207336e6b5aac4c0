import { locatorCandidates, parseLocator, toSelector } from '../../../../src/runtime/protocols/browser/locators.js';
import { SHORT_WAIT, c, expect, failureAfterOpen, op, run, test } from './support.js';

test.describe('parseLocator', () => {
  test('reads prefixes, bare XPath and bare CSS', () => {
    expect(parseLocator('id=username')).toEqual({ strategy: 'id', selector: 'username' });
    expect(parseLocator('name=user')).toEqual({ strategy: 'name', selector: 'user' });
    expect(parseLocator('css=form > input[name=user]')).toEqual({ strategy: 'css', selector: 'form > input[name=user]' });
    expect(parseLocator('xpath=//a[@x="1=2"]')).toEqual({ strategy: 'xpath', selector: '//a[@x="1=2"]' });
    expect(parseLocator('link=Sign in')).toEqual({ strategy: 'linkText', selector: 'Sign in' });
    expect(parseLocator('linkText=Sign in')).toEqual({ strategy: 'linkText', selector: 'Sign in' });
    expect(parseLocator('partialLinkText=Sign')).toEqual({ strategy: 'partialLinkText', selector: 'Sign' });
    expect(parseLocator('//button')).toEqual({ strategy: 'xpath', selector: '//button' });
    expect(parseLocator('(//li)[2]')).toEqual({ strategy: 'xpath', selector: '(//li)[2]' });
    expect(parseLocator('./input')).toEqual({ strategy: 'xpath', selector: './input' });
    expect(parseLocator('input[name=user]')).toEqual({ strategy: 'css', selector: 'input[name=user]' });
    expect(parseLocator('#go.btn')).toEqual({ strategy: 'css', selector: '#go.btn' });
  });

  test('a .side strategy decides how an unprefixed locator reads', () => {
    expect(parseLocator('#go', 'css:finder')).toEqual({ strategy: 'css', selector: '#go' });
    expect(parseLocator('//a', 'xpath:link')).toEqual({ strategy: 'xpath', selector: '//a' });
    expect(parseLocator('id=go', 'xpath:attributes')).toEqual({ strategy: 'id', selector: 'go' });
  });

  test('refuses unknown prefixes (with a suggestion) and empty locators', () => {
    expect(parseLocator('dom=document.forms[0]')).toContain('unknown locator prefix "dom="');
    expect(parseLocator('ids=x')).toContain('(did you mean "id"?)');
    expect(parseLocator('css=')).toBe('the locator "css=" has nothing after "css="');
    expect(parseLocator('  ')).toBe('the locator is empty');
  });

  test('toSelector quotes ids, names and link texts', () => {
    expect(toSelector({ strategy: 'id', selector: 'a"b' })).toBe('[id="a\\"b"]');
    expect(toSelector({ strategy: 'name', selector: 'user' })).toBe('[name="user"]');
    expect(toSelector({ strategy: 'linkText', selector: ' Sign   in ' })).toBe('xpath=//a[normalize-space(.)="Sign in"]');
    expect(toSelector({ strategy: 'partialLinkText', selector: 'it\'s "x"' }))
      .toBe('xpath=//a[contains(normalize-space(.), concat("it\'s ", \'"\', "x", \'"\', ""))]');
  });

  test('locatorCandidates: target first, then targets in any of their shapes, without repeats', () => {
    expect(locatorCandidates(c('click', 'id=go', undefined, { targets: [['id=go', 'id'], ['css=#go', 'css:finder'], ['xpath=//button', 'xpath:attributes']] })))
      .toEqual([{ locator: 'id=go' }, { locator: 'css=#go', strategy: 'css:finder', index: 1 }, { locator: 'xpath=//button', strategy: 'xpath:attributes', index: 2 }]);
    expect(locatorCandidates(c('click', 'id=go', undefined, { targets: ['css=#go', 'id=go'] }))).toEqual([{ locator: 'id=go' }, { locator: 'css=#go', index: 0 }]);
    expect(locatorCandidates(c('click', 'id=go', undefined, { targets: 'name=go' }))).toEqual([{ locator: 'id=go' }, { locator: 'name=go' }]);
  });
});

test('every locator kind finds its element in the page', async ({ context, pages }) => {
  const result = await run(
    context,
    op([
      c('open', `${pages.url}/form.html`),
      c('storeAttribute', 'id=go@id', 'byId'),
      c('storeAttribute', 'name=password@id', 'byName'),
      c('storeAttribute', 'css=button.primary@id', 'byCss'),
      c('storeAttribute', 'button.btn@id', 'bareCss'),
      c('storeAttribute', 'xpath=//input[@type="password"]@id', 'byXpath'),
      c('storeAttribute', '//select@id', 'bareXpath'),
      c('storeText', '(//ul[@class="items"]/li)[2]', 'indexedXpath'),
      c('storeAttribute', 'linkText=Skip sign in@class', 'byLinkText'),
      c('storeAttribute', 'link=Skip sign in@class', 'byLink'),
      c('storeAttribute', 'partialLinkText=Skip@class', 'byPartial'),
    ]),
  );
  expect(result.variables).toEqual({
    byId: 'go', byName: 'password', byCss: 'go', bareCss: 'go', byXpath: 'password', bareXpath: 'role',
    indexedXpath: 'two', byLinkText: 'skip', byLink: 'skip', byPartial: 'skip',
  });
});

test('when the target fails, targets are tried in order, without waiting the full time per candidate', async ({ context, pages }) => {
  const started = Date.now();
  const result = await run(
    context,
    op([
      c('open', `${pages.url}/form.html`),
      c('storeText', 'id=renamed-heading', 'text', {
        targets: [['id=renamed-heading', 'id'], ['css=#also-gone', 'css:finder'], ['xpath=//h1[@id="heading"]', 'xpath:attributes'], ['css=h1', 'css:finder']],
      }),
      c('click', 'css=#old-button', '', { targets: [['name=old', 'name'], ['#go', 'css:finder']] }),
    ], { wait: 6 }),
  );
  expect(result.variables.text).toBe('Sign in');
  // Each command gives its target 1.5 s (a quarter of 6 s) before polling every candidate: about
  // 3 s in all. Waiting the full 6 s on each failing candidate would take 12 s for the first
  // command's two alone; under that bound the test tells the two apart on a loaded machine too
  // (6.2 s was seen with the whole suite running beside it).
  expect(Date.now() - started).toBeLessThan(2 * 6000);
});

test('a target with alternatives that all fail names how many were tried', async ({ context, pages }) => {
  const error = await failureAfterOpen(
    context,
    `${pages.url}/form.html`,
    [c('click', 'id=nope', '', { targets: [['css=#nope2', 'css:finder'], ['xpath=//nope', 'xpath:position']] })],
    SHORT_WAIT,
  );
  expect(error.message).toContain(`no element matches the target nor any of its 2 alternatives in targets within ${SHORT_WAIT}s`);
});

test('a target with a prefix multiauth does not know still falls back to its alternatives', async ({ context, pages }) => {
  const result = await run(
    context,
    op([c('open', `${pages.url}/form.html`), c('storeText', 'dom=document.getElementById("heading")', 'text', { targets: [['css=h1', 'css:finder']] })]),
  );
  expect(result.variables.text).toBe('Sign in');
});
