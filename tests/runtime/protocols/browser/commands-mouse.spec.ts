import { SHORT_WAIT, c, expect, failureAfterOpen, op, run, test } from './support.js';

test('click follows a link; doubleClick, clickAt and doubleClickAt hit the element where told', async ({ context, pages }) => {
  const result = await run(
    context,
    op([
      c('open', `${pages.url}/controls.html`),
      c('clickAt', 'id=pad', '10,20'),
      c('doubleClickAt', 'id=pad', '30,40'),
      c('doubleClick', 'id=pad'),
      c('storeText', 'id=padlog', 'log'),
      c('open', `${pages.url}/form.html`),
      c('click', 'linkText=Help "quoted" & \'single\''),
      c('storeTitle', 'title'),
    ]),
  );
  const log = result.variables.log ?? '';
  expect(log).toContain('click@10,20');
  expect(log).toContain('dblclick@30,40');
  expect(log).toContain('dblclick@100,50');
  expect(result.variables.title).toBe('Help');
});

test('storeTitle after a click that navigates waits for the new page to be parsed: its title, not an empty one', async ({ context, pages }) => {
  const result = await run(context, op([c('open', `${pages.url}/slow-link.html`), c('click', 'id=slow'), c('storeTitle', 'title')]));
  expect(result.variables.title).toBe('Slow');
});

test('mouseOver and mouseOut fire hover events', async ({ context, pages }) => {
  const result = await run(
    context,
    op([
      c('open', `${pages.url}/controls.html`),
      c('mouseOver', 'id=hover'),
      c('storeText', 'id=hovered', 'over'),
      c('waitForElementVisible', 'id=tip'),
      c('mouseOut', 'id=hover'),
      c('storeText', 'id=hovered', 'out'),
      c('waitForElementNotVisible', 'id=tip'),
    ]),
  );
  expect(result.variables).toMatchObject({ over: 'yes', out: 'out' });
});

test('mouseDown, mouseUp, mouseDownAt, mouseUpAt and mouseMoveAt', async ({ context, pages }) => {
  const result = await run(
    context,
    op([
      c('open', `${pages.url}/controls.html`),
      c('mouseMoveAt', 'id=pad', '5,6'),
      c('mouseDownAt', 'id=pad', '7,8'),
      c('mouseUpAt', 'id=pad', '9,10'),
      c('mouseDown', 'id=pad'),
      c('mouseUp', 'id=pad'),
      c('storeText', 'id=padlog', 'log'),
    ]),
  );
  const log = result.variables.log ?? '';
  expect(log).toContain('mousemove@5,6');
  expect(log).toContain('mousedown@7,8');
  expect(log).toContain('mouseup@9,10');
  expect(log).toContain('mousedown@100,50');
  expect(log).toContain('mouseup@100,50');
});

test('dragAndDropToObject drops the target on the value', async ({ context, pages }) => {
  const result = await run(
    context,
    op([c('open', `${pages.url}/controls.html`), c('dragAndDropToObject', 'id=drag', 'id=drop'), c('storeText', 'id=droplog', 'log')]),
  );
  expect(result.variables.log).toBe('dropped');
});

test('check and uncheck toggle checkboxes and radios, leaving them alone when already right', async ({ context, pages }) => {
  await run(
    context,
    op([
      c('open', `${pages.url}/controls.html`),
      c('check', 'id=check'),
      c('check', 'id=check'),
      c('assertChecked', 'id=check'),
      c('uncheck', 'id=check'),
      c('uncheck', 'id=check'),
      c('assertNotChecked', 'id=check'),
      c('check', 'id=radio1'),
      c('assertNotChecked', 'id=radio2'),
    ]),
  );
  const page = context.pages()[0]!;
  expect(await page.isChecked('#check')).toBe(false);
  expect(await page.isChecked('#radio1')).toBe(true);
});

test('click fails on a disabled element after the timeout', async ({ context, pages }) => {
  const error = await failureAfterOpen(context, `${pages.url}/controls.html`, [c('click', 'id=disabled')], SHORT_WAIT);
  expect(error.code).toBe('BROWSER_STEP_FAILED');
  expect(error.message).toContain('command 1 (click "id=disabled")');
  expect(error.message).toMatch(/Timeout \d+ms exceeded/);
});
