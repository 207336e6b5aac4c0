import { test, expect } from '@playwright/test';
import type { PlanExtraction } from '../../../src/compile/plan.js';
import { emptyObservation } from '../../../src/runtime/http/observation.js';
import { extract } from '../../../src/runtime/engine/extract/index.js';

const where = { user: 'user', procedure: 'webdriver', step: 0 };

// The Python original's published webdriver example reads a token out of a requested URL with
// `location: query, key: ""` and a regex over the whole URL.
test('an empty query key gives whole URLs to the regex, latest first', () => {
  const extraction: PlanExtraction = {
    name: 'accessToken',
    location: 'query',
    key: '',
    regex: 'onboarding-portal.*portal-session-id=([^*]*)',
    origin: ['procedures', 0, 'operations', 0, 'extractions', 0],
  };
  const observation = {
    ...emptyObservation(),
    urls: ['https://app.test/signin', 'https://onboarding-portal.test/start?portal-session-id=s3ss10n'],
    requests: [{ method: 'GET', url: 'https://api.test/other?portal-session-id=wrong', headers: [] }],
  };
  expect(extract(observation, extraction, where)).toBe('s3ss10n');
});
