import { expect } from '@playwright/test';
import { MultiAuthError } from '../../src/core/errors.js';

/**
 * The MultiAuthError `fn` throws. Fails the test when `fn` throws something else (an expectation,
 * so the report shows what came instead) or nothing at all.
 *
 * @example
 * expect(thrown(() => extract(observation, extraction, where)).code).toBe('AUTH_EXTRACTION');
 */
export function thrown(fn: () => unknown): MultiAuthError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(MultiAuthError);
    return error as MultiAuthError;
  }
  throw new Error('expected a MultiAuthError, nothing was thrown');
}
