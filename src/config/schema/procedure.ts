import { z } from 'zod';
import { TokenExtraction, TokenInjection } from './common.js';
import { DigestSecondRequest, HttpRequestParameters } from './request.js';
import { BrowserOperationParameters } from './browser.js';

/** HTTPOperation: one request, then its extractions. */
export const HttpOperation = z.strictObject({
  tech: z.literal('http'),
  parameters: HttpRequestParameters,
  extractions: z.array(TokenExtraction).default([]),
});
export type HttpOperation = z.infer<typeof HttpOperation>;

/** DigestRequestSequence: the challenge request, then the answered one. */
export const DigestRequestSequence = z.strictObject({
  first_request: HttpRequestParameters,
  second_request: DigestSecondRequest.optional(),
});
export type DigestRequestSequence = z.infer<typeof DigestRequestSequence>;

/** DigestOperation (RFC 7616). */
export const DigestOperation = z.strictObject({
  tech: z.literal('digest'),
  parameters: DigestRequestSequence,
  extractions: z.array(TokenExtraction).default([]),
});
export type DigestOperation = z.infer<typeof DigestOperation>;

/** BrowserOperation; `tech: selenium` is accepted as an alias of `browser` (DESIGN.md). */
export const BrowserOperation = z.strictObject({
  tech: z.enum(['browser', 'selenium']),
  parameters: BrowserOperationParameters,
  extractions: z.array(TokenExtraction).default([]),
});
export type BrowserOperation = z.infer<typeof BrowserOperation>;

/** One operation of a procedure, discriminated by `tech`. */
export const Operation = z.discriminatedUnion('tech', [HttpOperation, DigestOperation, BrowserOperation]);
export type Operation = z.infer<typeof Operation>;

/** Procedure: a named, ordered list of operations and the injections made from their variables. */
export const Procedure = z.strictObject({
  name: z.string().min(1),
  operations: z.array(Operation).min(1),
  injections: z.array(TokenInjection).default([]),
});
export type Procedure = z.infer<typeof Procedure>;
