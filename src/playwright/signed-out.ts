// The rule lives in runtime/ since the access matrix classifies answers with it too (CLI and fixtures).
export { DEFAULT_SIGNED_OUT, describeTrigger, readsBody, signedOutBy, triggerKind, type Answer, type SignedOutRule, type SignedOutTrigger } from '../runtime/index.js';
