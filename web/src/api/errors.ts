/**
 * The spec's Error object ({error, message, details?, requestId}) as a thrown value, so a page
 * shows one shape whatever went wrong. A network failure or a non-JSON answer (a proxy's HTML
 * page) becomes NETWORK_ERROR / UNEXPECTED_RESPONSE, codes of ours that the API never sends.
 */
import type { components } from './schema.ts';

export type ErrorBody = components['schemas']['Error'];

export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  readonly requestId: string | undefined;

  constructor(status: number, body: Partial<ErrorBody>) {
    super(body.message ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = body.error ?? (status === 0 ? 'NETWORK_ERROR' : 'UNEXPECTED_RESPONSE');
    this.details = body.details;
    this.requestId = body.requestId;
  }
}

export const isApiError = (value: unknown): value is ApiError => value instanceof ApiError;

/** Whether the error is the API's 401: the session is gone, so the page to show is sign-in. */
export const isUnauthorized = (value: unknown): boolean => isApiError(value) && value.status === 401;
