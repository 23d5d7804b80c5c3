/**
 * The variables of outgoing email (password resets, invitations), spread into ENV_SCHEMA.
 * SMTP_URL is required with EMAIL_PROVIDER=smtp (load.ts); EMAIL_PROVIDER=log is refused in
 * production unless SIMULATION_MODE (simulation.ts).
 */
import { Type } from 'typebox';
import { checkedText, oneOf, text } from './env.ts';
import { isUrlWith } from './formats.ts';

export const EMAIL_PROVIDERS = ['log', 'smtp'] as const;

export const EMAIL_SCHEMA = {
  EMAIL_PROVIDER: oneOf(EMAIL_PROVIDERS, { default: 'log', description: 'how email leaves: log (written to the log with its links, for development) or smtp (SMTP_URL)' }),
  SMTP_URL: Type.Optional(
    checkedText((url) => isUrlWith(['smtp:', 'smtps:'], url), {
      errorMessage: 'must be an smtp:// or smtps:// URL',
      description: 'smtp: the server, credentials inside (smtps://user:password@host:465, or smtp://…:587 with STARTTLS); never logged',
    }),
  ),
  EMAIL_FROM: text({ default: 'no-reply@localhost', minLength: 3, description: 'From of every email' }),
  PUBLIC_APP_URL: Type.Optional(
    checkedText((url) => isUrlWith(['https:', 'http:'], url), {
      errorMessage: 'must be an http:// or https:// URL',
      description:
        'origin (and path) the service is reached at: emailed links open its dashboard (<PUBLIC_APP_URL>/app/reset-password#<token>, /app/accept-invitation#<token>) and wallet ownership challenges name it (the SIWS domain and URI); unset: http://<HOST>:<PORT> (localhost for a wildcard or loopback HOST)',
    }),
  ),
};
