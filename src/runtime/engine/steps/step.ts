import type { PasskeyRun } from './passkey-step.js';
import type { SignInJar } from '../../http/cookie-jar.js';
import type { RetryPolicy } from '../../http/retry.js';
import type { ClientCertificate } from '../../http/client-certificates.js';
import type { Redactor } from '../../../core/redactor.js';
import type { Plan, PlanCredentials, PlanOperation, PlanUser } from '../../../compile/index.js';
import type { Observation, ObservedCookie } from '../../http/observation.js';
import type { DigestSessionState, OriginStorage } from '../../session/session.js';
import type { TemplateScope, TemplateWhere } from '../../template/template.js';
import type { MailCursor, MailReader } from '../../mail/reader.js';
import type { BrowserSession } from './browser-session.js';

/** Everything one operation of a procedure may use. */
export interface StepContext {
  plan: Plan;
  user: PlanUser;
  /** Credentials of this run (a refresh may have its own). */
  credentials: PlanCredentials;
  /** Variables so far; extractions are added by the runner after the step, not by the step. */
  scope: TemplateScope;
  /** User, procedure, zero-based step and the operation's config path, for templates and errors. */
  where: TemplateWhere & { step: number };
  /** Every secret of the run; a step adds what it creates (derived credentials...). */
  redactor: Redactor;
  /** Cookies of this sign-in, shared by its operations. */
  jar: SignInJar;
  /** The browser runner handle (browser steps), as given to `authenticate`. */
  browser?: unknown;
  /** mTLS certificates of a user with `repeater_mtls`, presented by every request of the sign-in. */
  clientCertificates?: readonly ClientCertificate[];
  /** How the sign-in's requests retry transient failures; default the process's policy. */
  retry?: RetryPolicy;
  /**
   * Told what the step observed as soon as it has it, before judging it: a step that then fails
   * (a status, a protocol error) is still listed with its requests, and its answer explained.
   */
  observed?: (observation: Observation) => void;
  /** The user's passkey through the sign-in (users with `passkey`): browser steps seed it and keep what it became. */
  passkey?: PasskeyRun;
  /**
   * The mailbox of a procedure with a `tech: email` step, and the point in it taken when the
   * procedure started: only mail after it counts.
   */
  mail?: { reader: MailReader; cursor: MailCursor };
  /**
   * The browser context and page of the procedure's browser steps: a browser step continues in
   * the page the one before it left (after an email step, too), and the procedure closes it.
   */
  browserSession?: BrowserSession;
}

/** What an operation produced: what it observed (for extractions) and state for the session. */
export interface StepResult {
  observation: Observation;
  /** A digest step's state, so later requests answer challenges of the same protection space. */
  digest?: DigestSessionState;
  /** localStorage a browser step captured. */
  origins?: OriginStorage[];
  /** Variables the step stored itself (a browser step's `store*` commands); they join the scope. */
  variables?: Record<string, string>;
  /** Cookies the step ended with outside the sign-in's jar (a browser context's cookies). */
  cookies?: ObservedCookie[];
}

/** Runs one kind of operation. */
export type StepRunner<Op extends PlanOperation = PlanOperation> = (op: Op, ctx: StepContext) => Promise<StepResult>;
