/**
 * Access replay's pure parts (issue 38): which requests of a test are replayed, how each replay is
 * judged against the owner's answer, and the run's table. The senders live in the layers above.
 *
 * @example
 * const { ReplaySelection, replayVerdict, judgeReplays } = await loadAccess(); // from runtime/index.ts
 */
export { CREDENTIAL_HEADERS, withoutCredentials, type OwnerCredentials } from './credentials.js';
export { MAX_COMPARED_CHARS, sameAnswer, jsonDifferences, type AnswerIdentities, type ReplayAnswer } from './compare.js';
export { DEFAULT_REPLAY_RATE, DEFAULT_REPLAY_TIME, ReplayPacer, type PacerClock } from './pacing.js';
export { requestPattern, segmentPattern } from './pattern.js';
export { replayMarkdown, replayReport, replaySummaryLine, replayUsers, type ReplayReport, type ReplayRow } from './report.js';
export { DEFAULT_REPLAY_BOUNDS, memoryClaims, ReplaySelection, type OfferedRequest, type ReplayBounds, type ReplayClaims, type ReplaySkip, type SkippedCounts } from './selection.js';
export { ANONYMOUS, findingText, judgeReplays, pathOf, replayVerdict, type ReplayCell, type ReplayJudgement, type ReplayVerdict } from './verdict.js';
