/**
 * Calls to the service through the TLS front, as a client outside would make them: https,
 * trusting the local CA only (this process started before the CA existed, so
 * NODE_EXTRA_CA_CERTS cannot help it; undici's Agent takes the CA instead).
 */
import { Agent, fetch } from 'undici';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface ApiAnswer {
  status: number;
  body: Json;
}

export interface HttpsClient {
  call(method: 'GET' | 'POST' | 'PUT', url: string, input?: { body?: unknown; headers?: Record<string, string> }): Promise<ApiAnswer>;
  close(): Promise<void>;
}

export function createHttpsClient(caPem: string): HttpsClient {
  const dispatcher = new Agent({ connect: { ca: caPem } });
  return {
    async call(method, url, input = {}) {
      const response = await fetch(url, {
        method,
        dispatcher,
        headers: { ...(input.body === undefined ? {} : { 'content-type': 'application/json' }), ...input.headers },
        ...(input.body === undefined ? {} : { body: JSON.stringify(input.body) }),
        signal: AbortSignal.timeout(15_000),
      });
      const text = await response.text();
      let body: Json;
      try {
        body = text ? (JSON.parse(text) as Json) : {};
      } catch {
        body = { text };
      }
      return { status: response.status, body };
    },
    close: () => dispatcher.close(),
  };
}

/** The answer's body when its status is the expected one; otherwise an error naming both. */
export function expectStatus(answer: ApiAnswer, status: number, what: string): Json {
  if (answer.status !== status) throw new Error(`${what}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body).slice(0, 400)}`);
  return answer.body;
}
