/**
 * The test of the project `authTimeline` adds (a teardown of the others): attaches the run's
 * sign-in timeline to the report. Loaded by Playwright as a test file, never imported.
 */
import { loadRunTimeline, readRunEvents } from '../sessions/index.js';
import { loadPlaywrightTest } from './playwright-test.js';
import { runEventsFile, TIMELINE_FILES } from './run-summary.js';

const { test } = loadPlaywrightTest();

test('multiauth sign-in timeline', async ({}, testInfo) => {
  const file = runEventsFile(process.env);
  const events = file === undefined ? [] : readRunEvents(file);
  const { timelineHtml, timelineText } = await loadRunTimeline();
  await testInfo.attach(TIMELINE_FILES.html, { body: timelineHtml(events), contentType: 'text/html' });
  await testInfo.attach(TIMELINE_FILES.text, { body: timelineText(events), contentType: 'text/plain' });
});
