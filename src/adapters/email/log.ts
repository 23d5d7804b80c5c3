/**
 * The development email "catcher": each message is written to the log, links included (that is
 * how a developer follows a reset or an invitation link), and the last ones are kept in memory
 * for tests. Production refuses it unless SIMULATION_MODE (src/config/simulation.ts): the log
 * would then hold live single-use links.
 */
import type { EmailMessage, EmailSender } from './port.ts';

const KEPT = 50;

/** The part of a logger the catcher writes to. */
export interface EmailLog {
  info(obj: object, msg: string): void;
}

export interface LogEmailSender extends EmailSender {
  /** The last messages sent, oldest first (at most KEPT). */
  readonly outbox: EmailMessage[];
}

export function createLogEmailSender(logger: EmailLog): LogEmailSender {
  const outbox: EmailMessage[] = [];
  return {
    outbox,
    async send(message) {
      outbox.push({ ...message });
      if (outbox.length > KEPT) outbox.shift();
      logger.info({ email: { to: message.to, subject: message.subject, text: message.text } }, 'email (EMAIL_PROVIDER=log: not sent)');
    },
  };
}
