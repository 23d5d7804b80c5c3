/** Small helpers the resources share: unwrapping an answer, and the typed parts of an operation. */
import type { Client } from 'openapi-fetch';
import { apiErrorFrom } from './errors.ts';
import type { operations, paths } from './generated/openapi.ts';

export type GeneratedClient = Client<paths>;

/** Per call, for writes: your own key (to retry across process restarts), and cancellation. */
export interface WriteOptions {
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** The generated client's answer of one call. */
interface Answer<D> {
  data?: D;
  error?: unknown;
  response: Response;
}

/** The data of a successful answer; the typed error otherwise. */
export async function unwrap<D>(call: Promise<Answer<D>>): Promise<D> {
  const { data, error, response } = await call;
  if (!response.ok) throw apiErrorFrom(response, error);
  return data as D;
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
