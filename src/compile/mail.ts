import type { MailSetting } from '../config/index.js';
import { templateNames } from '../core/template-names.js';
import type { PlanMail, PlanProcedure } from './plan.js';

/** Where the sink listens for SMTP when `mail.smtp.host` is not given: loopback only. */
export const DEFAULT_SMTP_HOST = '127.0.0.1';

/**
 * The top-level `mail`, its defaults resolved: the sink's host (loopback) and API port (the SMTP
 * port + 1), or a catcher's URL without a trailing slash.
 *
 * @example
 * planMail({ smtp: { port: 2525 } }); // { kind: 'smtp', host: '127.0.0.1', port: 2525, apiPort: 2526 }
 * planMail({ mailpit: 'http://127.0.0.1:8025/' }); // { kind: 'mailpit', url: 'http://127.0.0.1:8025' }
 */
export function planMail(setting: MailSetting): PlanMail {
  if (setting.smtp) {
    const { host, port, api_port: apiPort } = setting.smtp;
    return { kind: 'smtp', host: host ?? DEFAULT_SMTP_HOST, port, apiPort: apiPort ?? port + 1 };
  }
  if (setting.mailpit !== undefined) return { kind: 'mailpit', url: setting.mailpit.replace(/\/+$/, '') };
  return { kind: 'maildev', url: (setting.maildev ?? '').replace(/\/+$/, '') };
}

/**
 * Marks the `http` operations that carry a value an earlier `tech: email` step of the procedure
 * extracted (`{{magic_link}}` as the URL, `{{code}}` in the body) as `singleUse`: a magic link or
 * a code works once, and a request that may have reached the server is never sent again.
 * Changes `procedures` in place.
 *
 * @example
 * markSingleUse(plan.procedures); // plan.procedures['link-login'].operations[2].singleUse === true
 */
export function markSingleUse(procedures: Record<string, PlanProcedure>): void {
  for (const procedure of Object.values(procedures)) {
    const fromMail = new Set<string>();
    for (const operation of procedure.operations) {
      if (operation.tech === 'http' && fromMail.size && templateNames(operation.request).some((name) => fromMail.has(name))) operation.singleUse = true;
      for (const extraction of operation.extractions) {
        if (operation.tech === 'email') fromMail.add(extraction.name);
        else fromMail.delete(extraction.name);
      }
    }
  }
}
