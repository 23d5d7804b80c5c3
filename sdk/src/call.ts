/** Small helpers the resources share: unwrapping an answer, and the typed parts of an operation. */
import type { ApiClient } from './api.ts';
import type { operations } from './generated/openapi.ts';

/** `client.api`: the generated client, throwing the SDK's errors (api.ts). */
export type GeneratedClient = ApiClient;

/** Per call, for writes: your own key (to retry across process restarts), and cancellation. */
export interface WriteOptions {
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** The data of an answer: the generated client already threw for any other (api.ts). */
export async function unwrap<D>(call: Promise<{ data?: D }>): Promise<D> {
  return (await call).data as D;
}

/** Request body of an operation. */
export type BodyOf<Op extends keyof operations> = operations[Op] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
/** Query parameters of an operation. */
export type QueryOf<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;

/**
 * Request options of a write: the caller's `Idempotency-Key`, when chosen (else transport.ts
 * makes one; as a plain header, so it also reaches an operation whose document forgets the
 * parameter), and the abort signal.
 */
export function writeInit(options: WriteOptions | undefined) {
  return {
    ...(options?.idempotencyKey !== undefined ? { headers: { 'idempotency-key': options.idempotencyKey } } : {}),
    ...(options?.signal ? { signal: options.signal } : {}),
  };
}

/** Request options of a read. */
export const readInit = (options: { signal?: AbortSignal } | undefined) => (options?.signal ? { signal: options.signal } : {});
