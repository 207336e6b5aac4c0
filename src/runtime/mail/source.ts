/**
 * Where mail comes from, as the compiled plan says it (`PlanMail` of `compile/plan.ts` has the same
 * shape): the package's own SMTP sink, or a Mailpit or maildev the team already runs.
 */
export type MailSource =
  | { kind: 'smtp'; host: string; port: number; apiPort: number }
  | { kind: 'mailpit'; url: string }
  | { kind: 'maildev'; url: string };
