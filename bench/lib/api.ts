/** A small JSON client for the service's API (setup steps, not load). */
export interface Credentials {
  merchantId: string;
  apiKey: string;
  apiSecret: string;
}

export class Api {
  readonly base: string;
  readonly credentials: Credentials | undefined;

  constructor(base: string, credentials?: Credentials) {
    this.base = base;
    this.credentials = credentials;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      'content-type': 'application/json',
      ...(this.credentials ? { 'x-api-key': this.credentials.apiKey, 'x-api-secret': this.credentials.apiSecret } : {}),
      ...extra,
    };
  }

  async request<T>(method: string, path: string, body?: unknown, extra: Record<string, string> = {}, expect = [200, 201, 204]): Promise<T> {
    const headers = this.headers(extra);
    // No body, no content type (an empty one is not "none": the API answers 415 to a DELETE carrying it).
    if (body === undefined) delete headers['content-type'];
    const response = await fetch(this.base + path, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    if (!expect.includes(response.status)) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  get<T>(path: string, extra?: Record<string, string>) {
    return this.request<T>('GET', path, undefined, extra);
  }

  post<T>(path: string, body: unknown, extra?: Record<string, string>) {
    return this.request<T>('POST', path, body, extra);
  }
}
