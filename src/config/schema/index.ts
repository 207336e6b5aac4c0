/** The format's zod schemas: the single source of its TypeScript types and of its JSON Schema. */
export * from './common.js';
export * from './request.js';
export * from './browser.js';
export * from './procedure.js';
export * from './validation.js';
export * from './reauth.js';
export * from './passkey.js';
export * from './user.js';
export * from './presets.js';
export * from './access.js';
export * from './mail.js';
export * from './root.js';
