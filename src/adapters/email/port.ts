/**
 * Outgoing email: password-reset links and invitations (docs/architecture/people-and-sessions.md).
 * Plain text only; the callers build the message, the adapter only delivers it.
 */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface EmailSender {
  /** Resolves once the message is handed over (SMTP accepted it, or it was logged). */
  send(message: EmailMessage): Promise<void>;
}
