import { z } from 'zod';
import { TokenExtraction, TokenInjection } from './common.js';
import { DigestSecondRequest, HttpRequestParameters } from './request.js';
import { BrowserOperationParameters } from './browser.js';

const TECH = 'The kind of operation: http (one request), digest (RFC 7616 challenge and answer), browser (recorded Selenium IDE steps; selenium is an alias), email (wait for a mail and read it).';
const EXTRACTIONS = z.array(TokenExtraction).default([]).describe('Values read from this operation\'s exchange into variables: {name, location, key, regex}; default [].');

/** HTTPOperation: one request, then its extractions. */
export const HttpOperation = z.strictObject({
  tech: z.literal('http').describe(TECH),
  parameters: HttpRequestParameters.describe('The request: url, method, headers, cookies, queryParameters, body, timeout...'),
  extractions: EXTRACTIONS,
});
export type HttpOperation = z.infer<typeof HttpOperation>;

/** DigestRequestSequence: the challenge request, then the answered one. */
export const DigestRequestSequence = z.strictObject({
  first_request: HttpRequestParameters.describe('The request the server answers with the digest challenge (an HTTP request: url, method, ...).'),
  second_request: DigestSecondRequest.optional().describe('The answered request: url and method, each defaulting to the first request\'s.'),
});
export type DigestRequestSequence = z.infer<typeof DigestRequestSequence>;

/** DigestOperation (RFC 7616). */
export const DigestOperation = z.strictObject({
  tech: z.literal('digest').describe(TECH),
  parameters: DigestRequestSequence.describe('first_request (gets the challenge) and second_request (answers it), RFC 7616.'),
  extractions: EXTRACTIONS,
});
export type DigestOperation = z.infer<typeof DigestOperation>;

/** BrowserOperation; `tech: selenium` is accepted as an alias of `browser` (DESIGN.md). */
export const BrowserOperation = z.strictObject({
  tech: z.enum(['browser', 'selenium']).describe(TECH),
  parameters: BrowserOperationParameters.describe('project (the recorded Selenium IDE steps) and options ({} or wait_for_seconds, proxy).'),
  extractions: EXTRACTIONS,
});
export type BrowserOperation = z.infer<typeof BrowserOperation>;

/**
 * EmailParameters: which mail a `tech: email` step waits for. `subject` and `from` are RE2 regexes,
 * unanchored (`(?i)` for case), checked when the config loads.
 */
export const EmailParameters = z.strictObject({
  to: z.string().min(1).max(320).describe('The recipient waited for, matched exactly (any case) against the envelope recipients; templates allowed ({{email}}, ${EMAIL}).'),
  subject: z.string().min(1).max(4096).optional().describe('An RE2 regex the decoded Subject must match (unanchored; (?i) for case); absent: any subject.'),
  from: z.string().min(1).max(4096).optional().describe('An RE2 regex the From header\'s address must match (unanchored); absent: any sender.'),
  wait_for_seconds: z.int().min(1).max(600).optional().describe('Seconds to wait for the mail, from the step\'s start; default 30.'),
});
export type EmailParameters = z.infer<typeof EmailParameters>;

/**
 * EmailOperation (this project's extension): waits for a mail to `to` that arrived after the
 * procedure started; its extractions read the mail (`body`, `header`, `link`, `query`).
 */
export const EmailOperation = z.strictObject({
  tech: z.literal('email').describe(TECH),
  parameters: EmailParameters.describe('Which mail to wait for: to, subject?, from?, wait_for_seconds? (the top-level mail says where mail is read).'),
  extractions: z.array(TokenExtraction).default([]).describe('Values read from the mail into variables: location body (its text), header (key: Subject...), link (key: a glob of the link) or query (a parameter of a link); default [].'),
});
export type EmailOperation = z.infer<typeof EmailOperation>;

/** One operation of a procedure, discriminated by `tech`. */
export const Operation = z.discriminatedUnion('tech', [HttpOperation, DigestOperation, BrowserOperation, EmailOperation]);
export type Operation = z.infer<typeof Operation>;

/** Procedure: a named, ordered list of operations and the injections made from their variables. */
export const Procedure = z.strictObject({
  name: z.string().min(1).describe('The procedure\'s name, unique, named by users[].procedure; not starting with "preset[".'),
  operations: z.array(Operation).min(1).describe('One or more operations (tech: http, digest, browser or email), run in order; each sees what the earlier ones extracted.'),
  injections: z.array(TokenInjection).default([]).describe('How extracted variables reach every later authenticated request: {location, key, prefix, variable}; default [].'),
});
export type Procedure = z.infer<typeof Procedure>;
