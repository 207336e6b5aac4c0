import { z } from 'zod';
import { Body, Count, HttpMethod, NameValues, StringMap } from './common.js';

/**
 * HTTPRequestParameters: the request of an `http` operation or a digest sequence. The spec marks
 * `headers`, `cookies` and `queryParameters` required, but the format's published examples omit
 * them, so they default to empty lists (DESIGN.md).
 */
export const HttpRequestParameters = z.strictObject({
  url: z.string().min(1),
  method: HttpMethod,
  headers: z.array(NameValues).default([]),
  cookies: z.array(NameValues).default([]),
  queryParameters: z.array(NameValues).optional(),
  query_parameters: z.array(NameValues).optional(),
  body: Body.optional(),
  proxy: z.string().optional(),
  /** Seconds; absent = 30. */
  timeout: z.int().positive().optional(),
  insecure: z.boolean().optional(),
  /** Redirects to follow; absent = 20, 0 = none. */
  follow_redirects: Count.optional(),
});
export type HttpRequestParameters = z.infer<typeof HttpRequestParameters>;

/** HTTPRequestPreset: the compact request of the `http` and `digest` presets (maps, not lists). */
export const HttpRequestPreset = z.strictObject({
  url: z.string().min(1),
  method: HttpMethod,
  headers: StringMap.optional(),
  cookies: StringMap.optional(),
  query_parameters: StringMap.optional(),
  queryParameters: StringMap.optional(),
  body: Body.optional(),
});
export type HttpRequestPreset = z.infer<typeof HttpRequestPreset>;

/** DigestSecondRequestConfiguration: defaults to the first request's URL and method. */
export const DigestSecondRequest = z.strictObject({
  url: z.string().min(1).optional(),
  method: HttpMethod.optional(),
});
export type DigestSecondRequest = z.infer<typeof DigestSecondRequest>;
