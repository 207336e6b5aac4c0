/**
 * The configured user names, as a project declares them to the compiler: empty in the package, and
 * filled by the declaration file `multiauth types` writes (module augmentation of
 * `playwright-multiauth`). Each key is a user name; the values mean nothing.
 *
 * @example
 * // multiauth.d.ts, written by `npx multiauth types`:
 * declare module 'playwright-multiauth' {
 *   interface MultiAuthUsers { 'alice': true; 'bob': true }
 * }
 */
export interface MultiAuthUsers {}

/**
 * A user name `authUser`, `signInAs` and `authProjects({ users })` accept: one of the
 * {@link MultiAuthUsers} keys once a declaration fills it, any string while none does (a project
 * that never ran `multiauth types` compiles as before).
 *
 * @example
 * const user: AuthUserName = 'alice'; // 'alcie' fails to compile after `multiauth types`
 */
export type AuthUserName = [keyof MultiAuthUsers] extends [never] ? string : Extract<keyof MultiAuthUsers, string>;
