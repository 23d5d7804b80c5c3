/**
 * JSON-RPC 2.0 envelopes: one request or a batch, errors with the codes a Solana node uses, and
 * answers whose u64 values (bigint here) are written as plain JSON numbers of any size, as a node
 * writes them (kit parses the large ones as bigint).
 */

export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.code = code;
    this.data = data;
  }
}

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
export const SEND_TRANSACTION_PREFLIGHT_FAILURE = -32002;
export const TRANSACTION_SIGNATURE_VERIFICATION_FAILURE = -32003;
export const UNSUPPORTED_TRANSACTION_VERSION = -32015;
export const MIN_CONTEXT_SLOT_NOT_REACHED = -32016;

export const invalidParams = (message: string) => new RpcError(INVALID_PARAMS, message);

const BIGINT_MARK = '\u0000bigint:';

/** JSON.stringify, with every bigint written as its digits (no quotes). */
export function stringify(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${BIGINT_MARK}${v}` : v)).replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}

export type Handler = (params: unknown[]) => unknown;

interface Envelope {
  jsonrpc: '2.0';
  id: string | number | null;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

const failure = (id: Envelope['id'], error: RpcError): Envelope => ({
  jsonrpc: '2.0',
  id,
  error: { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) },
});

async function answerOne(request: unknown, methods: Map<string, Handler>, log: (message: string) => void): Promise<Envelope> {
  const body = request as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
  const idOk = body !== null && typeof body === 'object' && (body.id === undefined || body.id === null || typeof body.id === 'string' || typeof body.id === 'number');
  const id = idOk ? ((body.id as Envelope['id']) ?? null) : null;
  if (!idOk || Array.isArray(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string') {
    return failure(id, new RpcError(INVALID_REQUEST, 'Invalid request'));
  }
  const handler = methods.get(body.method);
  if (!handler) return failure(id, new RpcError(METHOD_NOT_FOUND, 'Method not found'));
  if (body.params !== undefined && !Array.isArray(body.params)) return failure(id, invalidParams('Invalid params: expected an array'));
  try {
    return { jsonrpc: '2.0', id, result: await handler((body.params as unknown[] | undefined) ?? []) };
  } catch (error) {
    if (error instanceof RpcError) return failure(id, error);
    log(`${body.method}: ${(error as Error).stack ?? String(error)}`);
    return failure(id, new RpcError(INTERNAL_ERROR, 'Internal error'));
  }
}

/** The answer's text to a request body: one envelope, or an array of them for a batch. */
export async function answer(text: string, methods: Map<string, Handler>, log: (message: string) => void): Promise<string> {
  let request: unknown;
  try {
    request = JSON.parse(text);
  } catch {
    return stringify(failure(null, new RpcError(PARSE_ERROR, 'Parse error')));
  }
  if (!Array.isArray(request)) return stringify(await answerOne(request, methods, log));
  if (request.length === 0) return stringify(failure(null, new RpcError(INVALID_REQUEST, 'Invalid request')));
  const answers: Envelope[] = [];
  for (const one of request) answers.push(await answerOne(one, methods, log));
  return stringify(answers);
}
