/**
 * compile/: turns a validated config into the Plan the runtime executes (every preset becomes
 * ordinary users and procedures), checks it, explains it.
 */
export { compile, type CompileOptions } from './compile.js';
export { resolvePlanPaths } from './resolve-paths.js';
export { checkPlan } from './check-plan.js';
export { markMissingEnv } from './missing-env.js';
export { explainPlan } from './explain.js';
export { usesBrowser, signsInOverHttp, signsInOnPages } from './user-needs.js';
export { planSecrets, planIdentifiers, registerPlan } from './secrets.js';
export { cognitoSecretHash, presetProcedureName, canonicalPresetType } from './presets/index.js';
export { templateNames } from '../core/template-names.js';
export type * from './plan.js';
export { checkCurlUrl } from './curl/url.js';
