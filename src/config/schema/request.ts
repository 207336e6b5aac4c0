import { z } from 'zod';
import { Body, Count, HttpMethod, NameValues, StringMap } from './common.js';

/**
 * HTTPRequestParameters: the request of an `http` operation or a digest sequence. The spec marks
 * `headers`, `cookies` and `queryParameters` required, but the format's published examples omit
 * them, so they default to empty lists (DESIGN.md).
 */
export const HttpRequestParameters = z.strictObject({
  url: z.string().min(1).describe('Where the request goes: an http: or https: URL (${BASE_URL}/auth/token).'),
  method: HttpMethod.describe('The HTTP method, in upper case: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, CONNECT or TRACE.'),
  headers: z.array(NameValues).default([]).describe('Request headers: a list of {name, values}; default [].'),
  cookies: z.array(NameValues).default([]).describe('Cookies, sent as one Cookie header: a list of {name, values}; default [].'),
  queryParameters: z.array(NameValues).optional().describe('Added to the URL\'s query: a list of {name, values} (or query_parameters; one spelling).'),
  query_parameters: z.array(NameValues).optional().describe('Added to the URL\'s query: a list of {name, values} (or queryParameters; one spelling).'),
  body: Body.optional().describe('The request body: a string is sent as written; an object as JSON, or as a form when Content-Type says so.'),
  proxy: z.string().optional().describe('HTTP(S) proxy URL of this request; default the top-level proxy.'),
  timeout: z.int().positive().optional().describe('Seconds for the exchange, redirects included; default 30.'),
  insecure: z.boolean().optional().describe('true: the server\'s TLS certificate is not verified; default false.'),
  follow_redirects: Count.optional().describe('Redirects to follow; default 20, 0: none.'),
  // Ghost's staff sign-in answers its first step with 403 2FA_NEW_DEVICE_DETECTED, and mails a code.
  accept_status: z.array(z.int().min(100).max(599)).min(1).max(20).optional()
    .describe('Statuses that count as success besides those below 400 ([403]: a sign-in whose first step answers 403 and mails a code).'),
});
export type HttpRequestParameters = z.infer<typeof HttpRequestParameters>;

/** HTTPRequestPreset: the compact request of the `http` and `digest` presets (maps, not lists). */
export const HttpRequestPreset = z.strictObject({
  url: z.string().min(1).describe('Where the request goes: an http: or https: URL (${BASE_URL}/auth/token).'),
  method: HttpMethod.describe('The HTTP method, in upper case: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, CONNECT or TRACE.'),
  headers: StringMap.optional().describe('Request headers, as a map ({ Accept: application/json }).'),
  cookies: StringMap.optional().describe('Cookies, as a map, sent as one Cookie header.'),
  query_parameters: StringMap.optional().describe('Added to the URL\'s query, as a map (or queryParameters; one spelling).'),
  queryParameters: StringMap.optional().describe('Added to the URL\'s query, as a map (or query_parameters; one spelling).'),
  body: Body.optional().describe('The request body, templated with the user\'s fields: { username: "{{username}}", password: "{{password}}" }.'),
});
export type HttpRequestPreset = z.infer<typeof HttpRequestPreset>;

/** DigestSecondRequestConfiguration: defaults to the first request's URL and method. */
export const DigestSecondRequest = z.strictObject({
  url: z.string().min(1).optional().describe('URL of the answered request; default the first request\'s.'),
  method: HttpMethod.optional().describe('Method of the answered request; default the first request\'s.'),
});
export type DigestSecondRequest = z.infer<typeof DigestSecondRequest>;
