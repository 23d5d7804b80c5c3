/** The email sender the configuration names: SMTP (EMAIL_PROVIDER=smtp) or the log (development). */
import type { EmailSettings } from '../../config/settings.ts';
import { createLogEmailSender, type EmailLog } from './log.ts';
import type { EmailSender } from './port.ts';
import { createSmtpEmailSender } from './smtp.ts';

export function createEmailSender(settings: EmailSettings, log: EmailLog): EmailSender {
  if (settings.provider === 'smtp') return createSmtpEmailSender({ url: settings.smtpUrl!, from: settings.from });
  return createLogEmailSender(log);
}
