import type { ConfigIssue } from '../core/errors.js';
import type { ConfigPath } from '../core/path.js';
import { compileUserRegex } from '../core/regex.js';
import type { AuthConfig, ReauthSetting } from '../config/index.js';
import type { PlanReauth, PlanUser } from './plan.js';

/**
 * Gives each user what a "signed out" answer looks like for it: `reauth` on the user (a generic
 * user, or a preset's user), else on its preset, else at the top level; the nearest one wins
 * whole. `false` marks a user no answer signs in again; the defaults (`true`, or nothing said)
 * leave `reauth` unset (HTTP 401 only). `users` are changed in place.
 *
 * @example
 * applyReauth(plan.users, config); // bob.reauth: { onStatus: [401, 403], onRedirect: ['/login'], onBody: ['Session terminated'] }
 */
export function applyReauth(users: PlanUser[], config: AuthConfig): void {
  for (const user of users) {
    const setting = ownSetting(user, config) ?? presetSetting(user, config) ?? config.reauth;
    const resolved = planReauth(setting);
    if (resolved === undefined) delete user.reauth;
    else user.reauth = resolved;
  }
}

/** The HTTP statuses that mean "signed out" when a config says nothing else. */
export const DEFAULT_REAUTH_STATUSES: readonly number[] = [401];

function planReauth(setting: ReauthSetting | undefined): PlanReauth | false | undefined {
  if (setting === false) return false;
  if (setting === undefined || setting === true) return undefined;
  const onStatus = [...new Set(setting.on_status ?? DEFAULT_REAUTH_STATUSES)];
  const redirect = setting.on_redirect;
  const onRedirect = redirect === undefined ? [] : Array.isArray(redirect) ? [...redirect] : [redirect];
  const onBody = bodyPatterns(setting);
  // The same as saying nothing: kept unset, so the user's cache key does not change.
  if (onRedirect.length === 0 && onBody.length === 0 && onStatus.length === 1 && onStatus[0] === 401) return undefined;
  return { onStatus, onRedirect, ...(onBody.length ? { onBody } : {}) };
}

function bodyPatterns(setting: ReauthSetting | undefined): string[] {
  const body = typeof setting === 'object' ? setting.on_body : undefined;
  return body === undefined ? [] : [...new Set(Array.isArray(body) ? body : [body])];
}

/**
 * The `reauth.on_body` patterns of the config that are no valid regex (RE2), each located where it
 * is written: the top level, a preset, a generic user or a preset's user. Checked wherever they are
 * written, also where a nearer `reauth` hides them: a wrong pattern is wrong before it is used.
 *
 * @example
 * reauthIssues(config); // [{ path: ['reauth', 'on_body'], message: 'not a valid regular expression: ...' }]
 */
export function reauthIssues(config: AuthConfig): ConfigIssue[] {
  const places: Array<[ConfigPath, ReauthSetting | undefined]> = [[['reauth'], config.reauth]];
  config.presets.forEach((preset, index) => {
    places.push([['presets', index, 'reauth'], (preset as { reauth?: ReauthSetting }).reauth]);
    const users = (preset as { users?: unknown }).users;
    if (!Array.isArray(users)) return;
    users.forEach((user: unknown, userIndex) => {
      if (user && typeof user === 'object' && 'reauth' in user) places.push([['presets', index, 'users', userIndex, 'reauth'], (user as { reauth?: ReauthSetting }).reauth]);
    });
  });
  config.users.forEach((user, index) => places.push([['users', index, 'reauth'], user.reauth]));
  const issues: ConfigIssue[] = [];
  for (const [path, setting] of places) {
    const body = typeof setting === 'object' ? setting.on_body : undefined;
    if (body === undefined) continue;
    const patterns = Array.isArray(body) ? body.map((pattern, i): [ConfigPath, string] => [[...path, 'on_body', i], pattern]) : [[[...path, 'on_body'], body] as [ConfigPath, string]];
    for (const [at, pattern] of patterns) {
      try {
        compileUserRegex(pattern);
      } catch (error) {
        issues.push({ severity: 'error', path: at, message: `not a valid regular expression: ${(error as Error).message}`, hint: REGEX_HINT });
      }
    }
  }
  return issues;
}

/** What to do about a pattern RE2 refuses (the session check's regexes say the same). */
export const REGEX_HINT = 'Fix the pattern (RE2 syntax, matched in linear time: (?P<name>), (?i) work; look-around and back-references do not).';

function ownSetting(user: PlanUser, config: AuthConfig): ReauthSetting | undefined {
  const [kind, index, inner, userIndex] = user.origin;
  if (typeof index !== 'number') return undefined;
  if (kind === 'users') return config.users[index]?.reauth;
  if (kind !== 'presets' || inner !== 'users' || typeof userIndex !== 'number') return undefined;
  const entry = (config.presets[index]?.users as unknown[] | undefined)?.[userIndex];
  return entry && typeof entry === 'object' && 'reauth' in entry ? (entry as { reauth?: ReauthSetting }).reauth : undefined;
}

function presetSetting(user: PlanUser, config: AuthConfig): ReauthSetting | undefined {
  const [kind, index] = user.origin;
  if (kind !== 'presets' || typeof index !== 'number') return undefined;
  const preset = config.presets[index] as { reauth?: ReauthSetting } | undefined;
  return preset?.reauth;
}
