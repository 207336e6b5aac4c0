/**
 * Requests at once by default in an access matrix run: quick, and few enough for a small test
 * server. In core so that the CLI's help shows it without loading the matrix runner (the sessions layer).
 *
 * @example
 * const parallel = options.parallel ?? DEFAULT_MATRIX_PARALLEL;
 */
export const DEFAULT_MATRIX_PARALLEL = 8;
