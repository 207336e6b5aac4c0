import { z } from 'zod';

/** A path glob (`/accounts/login/**`) or an absolute http(s) URL glob. */
const RedirectGlob = z
  .string()
  .min(1)
  .max(2048)
  .refine((glob) => glob.startsWith('/') || /^https?:\/\//i.test(glob), {
    message: 'expected a path glob starting with "/" (/accounts/login/**) or an http(s) URL glob',
  });

/** A regex an answer's text is matched against; compiled (and located when wrong) by compile. */
const BodyPattern = z.string().min(1).max(4096);

/**
 * What tells that a server no longer honours a session (issue 24): the statuses it answers a dead
 * session with (default 401), and where it redirects one (its login page).
 */
export const ReauthRule = z.strictObject({
  // A 403 is often a denial: list it only for apps that answer a dead session with it.
  on_status: z.array(z.int().min(400).max(599)).min(1).max(20).optional()
    .describe('Statuses (400-599) that mean "signed out"; default [401]. List 403 only if the app answers a dead session with it.'),
  on_redirect: z.union([RedirectGlob, z.array(RedirectGlob).min(1).max(20)]).optional()
    .describe('Redirect targets (a Location) that mean "signed out": a path glob (/accounts/login/**) or http(s) URL glob, or a list.'),
  // Many apps answer a dead session with a 200 ("You are not logged in", a JSON-RPC error).
  on_body: z.union([BodyPattern, z.array(BodyPattern).min(1).max(20)]).optional()
    .describe('A regex (RE2) or a list: an answer whose body (its first MiB of text) matches one means "signed out", whatever its status (You are not logged in|Session terminated).'),
});
export type ReauthRule = z.infer<typeof ReauthRule>;

/**
 * `reauth` where it may be written (top level, preset, user; the nearest wins): `false` (a
 * "signed out" answer is the test's to see), `true` (the defaults), or what "signed out" looks like.
 */
export const ReauthSetting = z.union([z.boolean(), ReauthRule]);

/** The description of `reauth` below the top level (presets and users). */
export const REAUTH_HERE = 'Which answers mean "signed out" and sign these users in again: {on_status, on_redirect, on_body}, true (default: HTTP 401) or false (none); the nearest one wins.';
export type ReauthSetting = z.infer<typeof ReauthSetting>;
