/**
 * Email through an SMTP server with nodemailer. The URL carries the credentials
 * (smtps://user:pass@host:465 or smtp://…:587 with STARTTLS), so it is never logged.
 */
import nodemailer from 'nodemailer';
import type { EmailSender } from './port.ts';

export interface SmtpSettings {
  url: string;
  from: string;
  /** Deadline of connecting and of each SMTP exchange. */
  timeoutMs?: number;
}

export function createSmtpEmailSender(settings: SmtpSettings): EmailSender & { close(): void } {
  const timeout = settings.timeoutMs ?? 10_000;
  const transport = nodemailer.createTransport({ url: settings.url, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout });
  return {
    async send(message) {
      await transport.sendMail({ from: settings.from, to: message.to, subject: message.subject, text: message.text });
    },
    close: () => transport.close(),
  };
}
