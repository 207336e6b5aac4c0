/**
 * The access matrix's pure parts (classifying answers, cells, rendering, the requests of the matrix),
 * one module for the runtime's front door to load on first use: only matrix runs need them.
 *
 * @example
 * const { classifyAnswer, accessCell } = await loadAccess(); // from runtime/index.ts
 */
export { accessCell, cellProblem, cellText, classifyAnswer, LOGIN_PATH } from './matrix.js';
export { matrixHtml, matrixMarkdown, matrixText, summary as matrixSummary } from './render.js';
export { accessRequestParts, denyRulesFor } from './request.js';
export {
  ANONYMOUS, CREDENTIAL_HEADERS, DEFAULT_REPLAY_BOUNDS, DEFAULT_REPLAY_RATE, DEFAULT_REPLAY_TIME, MAX_COMPARED_CHARS, memoryClaims, ReplayPacer, ReplaySelection, findingText, judgeReplays, jsonDifferences, pathOf,
  replayMarkdown, replayReport, replaySummaryLine, replayUsers, replayVerdict, requestPattern, sameAnswer, segmentPattern, withoutCredentials,
} from './replay/index.js';
