import { test, expect } from '@playwright/test';
import { thrown } from '../support/errors.js';
import type { PlanExtraction } from '../../src/compile/plan.js';
import { extract } from '../../src/runtime/engine/extract/index.js';
import { emptyObservation, type HeaderPair, type Observation } from '../../src/runtime/http/observation.js';

/** A body that is not JSON is taken whole only when it is plain text (docs/format.md, extractions). */
function answered(body: string, headers: HeaderPair[] = []): Observation {
  const observation = emptyObservation();
  observation.responses.push({ url: 'http://a.test/login', status: 200, headers, body });
  return observation;
}

const where = { user: 'alice', procedure: 'login', step: 0 };
const token = (extra: Partial<PlanExtraction> = {}): PlanExtraction => ({ name: 'token', location: 'body', key: 'token', origin: [], ...extra });
const failure = (observation: Observation, extraction = token()) => thrown(() => extract(observation, extraction, where));


test('plain text is still the value as a whole', () => {
  expect(extract(answered('tok-123', [['Content-Type', 'text/plain']]), token(), where)).toBe('tok-123');
  expect(extract(answered('"quoted"', [['Content-Type', 'application/json']]), token(), where)).toBe('"quoted"');
});

test('JSON that does not parse is never the value, whether the Content-Type or the first character says JSON', () => {
  for (const observation of [answered('{"token": "abc"', [['Content-Type', 'application/json']]), answered('  [1, 2', []), answered('oops', [['Content-Type', 'application/problem+json; charset=utf-8']])]) {
    const error = failure(observation);
    expect(error.code).toBe('EXTRACTION_NOT_FOUND');
    expect(error.message).toBe('extraction "token" found nothing: no body value "token": the latest response body is not valid JSON (it does not parse)');
    expect(error.render()).not.toContain('abc');
  }
});

test('an HTML page is never the value, by its Content-Type or its first tag; a regex still reads it', () => {
  const page = '<!DOCTYPE html><html><input name="csrf" value="c5rf-42"></html>';
  for (const observation of [answered(page), answered('<p>hi</p>', [['content-type', 'text/html; charset=utf-8']])]) {
    expect(failure(observation).message).toContain('the latest response body is an HTML page, not JSON');
  }
  expect(extract(answered(page, [['Content-Type', 'text/html']]), token({ regex: 'value="([^"]+)"' }), where)).toBe('c5rf-42');
});
