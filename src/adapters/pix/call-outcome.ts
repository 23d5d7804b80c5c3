/**
 * What a failed PSP call says of the PSP, for its health (docs/architecture/dependency-health.md):
 * `refused` when the PSP answered by refusing this one request (it is up), `error` when it did not
 * answer (unreachable, timed out, 5xx or 429 after the retries) or refused our credentials.
 */
import { PixProviderError } from './api-pix/http-client.ts';
import { PixChargeConflictError, PixDefenseRefusedError, PixPayoutRefusedError } from './port.ts';

const CREDENTIALS_REFUSED = new Set([401, 403]);

export function pspFailureOutcome(error: unknown): 'refused' | 'error' {
  if (error instanceof PixPayoutRefusedError || error instanceof PixChargeConflictError || error instanceof PixDefenseRefusedError) return 'refused';
  // A permanent 4xx refuses this request; 401/403 leave the PSP unusable until our settings are fixed.
  const status = error instanceof PixProviderError && !error.retryable ? error.status : undefined;
  return status !== undefined && status >= 400 && status < 500 && !CREDENTIALS_REFUSED.has(status) ? 'refused' : 'error';
}
