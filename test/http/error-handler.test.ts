import { EventEmitter } from 'node:events';
import pg from 'pg';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.ts';
import { StrictObject } from '../../src/http/schemas.ts';
import type { App } from '../../src/http/types.ts';
import { type TestContext, createTestContext, expectErrorBody } from '../helpers/app.ts';

describe('error handling: every failure is the spec Error object', () => {
  let ctx: TestContext;
  let app: App;

  beforeAll(async () => {
    ctx = await createTestContext();
    // A scratch app with probe routes that exercise each path of the error handler.
    app = await ctx.buildApp({ BODY_LIMIT_BYTES: '2048' }, undefined, (probe) => {
      probe.post(
        '/probe/body',
        {
          schema: {
            body: StrictObject({
              name: Type.String({ minLength: 2 }),
              count: Type.Optional(Type.Integer({ minimum: 0 })),
              email: Type.Optional(Type.String({ format: 'email' })),
            }),
          },
        },
        async (request) => request.body,
      );
      probe.get(
        '/probe/query',
        { schema: { querystring: StrictObject({ limit: Type.Integer({ maximum: 100, default: 20 }) }) } },
        async (request) => request.query,
      );
      probe.get('/probe/crash', async () => {
        throw new Error('connection to 10.0.0.5 refused: password authentication failed for user "secret"');
      });
      probe.get('/probe/pool-exhausted', async () => {
        // pg-pool's own error: its one connection is held, so the next checkout times out.
        class IdleClient extends EventEmitter {
          connect(callback: (err: Error | null) => void) {
            setImmediate(() => callback(null));
          }
          end() {
            return Promise.resolve();
          }
        }
        const pool = new pg.Pool({ max: 1, connectionTimeoutMillis: 10, Client: IdleClient as unknown as typeof pg.Client });
        const held = await pool.connect();
        try {
          await pool.connect();
        } finally {
          held.release();
          await pool.end();
        }
      });
      probe.get('/probe/conflict', async () => {
        throw new AppError('CONFLICT', 'already exists', { existingId: 'abc' });
      });
    });
  });
  afterAll(() => ctx.close());

  it('schema violations are 400 VALIDATION_ERROR naming each bad field', async () => {
    const response = await app.inject({ method: 'POST', url: '/probe/body', payload: { name: 'x', count: 1.5, email: 'nope' } });
    const body = expectErrorBody(response, 400, 'VALIDATION_ERROR');
    expect(Object.keys(body.details ?? {}).sort()).toEqual(['body.count', 'body.email', 'body.name']);
  });

  it('missing required fields are named', async () => {
    const response = await app.inject({ method: 'POST', url: '/probe/body', payload: {} });
    expect(expectErrorBody(response, 400, 'VALIDATION_ERROR').details).toEqual({ 'body.name': 'is required' });
  });

  it('unknown body properties are rejected, not dropped', async () => {
    const response = await app.inject({ method: 'POST', url: '/probe/body', payload: { name: 'ok', nmae: 'typo' } });
    expect(expectErrorBody(response, 400, 'VALIDATION_ERROR').details).toEqual({ 'body.nmae': 'is not an allowed property' });
  });

  it('bodies are not type-coerced: a numeric string is not an integer', async () => {
    const response = await app.inject({ method: 'POST', url: '/probe/body', payload: { name: 'ok', count: '3' } });
    expect(expectErrorBody(response, 400, 'VALIDATION_ERROR').details).toHaveProperty(['body.count']);
  });

  it('query strings are converted and validated', async () => {
    expect((await app.inject({ url: '/probe/query?limit=5' })).json()).toEqual({ limit: 5 });
    const tooBig = await app.inject({ url: '/probe/query?limit=101' });
    expect(expectErrorBody(tooBig, 400, 'VALIDATION_ERROR').details).toHaveProperty(['querystring.limit']);
    expect((await app.inject({ url: '/probe/query' })).json()).toEqual({ limit: 20 });
    for (const loose of ['2.5', '1e2', '0x10', ' 7', '']) {
      const response = await app.inject({ url: `/probe/query?limit=${encodeURIComponent(loose)}` });
      expect(expectErrorBody(response, 400, 'VALIDATION_ERROR').details, loose).toHaveProperty(['querystring.limit']);
    }
    const unknown = await app.inject({ url: '/probe/query?limit=5&page=x' });
    expect(expectErrorBody(unknown, 400, 'VALIDATION_ERROR').details).toEqual({ 'querystring.page': 'is not an allowed property' });
  });

  it('malformed JSON is 400', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/probe/body',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "ok",',
    });
    expect(expectErrorBody(response, 400, 'VALIDATION_ERROR').message).toBe('Body is not valid JSON');
  });

  it('an empty JSON body is no body: a route that needs one names its required fields', async () => {
    const response = await app.inject({ method: 'POST', url: '/probe/body', headers: { 'content-type': 'application/json' } });
    expect(expectErrorBody(response, 400, 'VALIDATION_ERROR').details).toEqual({ 'body.name': 'is required' });
  });

  it('a body over the limit is 413', async () => {
    const response = await app.inject({ method: 'POST', url: '/probe/body', payload: { name: 'x'.repeat(5000) } });
    expectErrorBody(response, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('a body that is not JSON is 415', async () => {
    const response = await app.inject({ method: 'POST', url: '/probe/body', headers: { 'content-type': 'text/xml' }, payload: '<a/>' });
    expectErrorBody(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('a malformed URL escape, found before routing, is the Error object too', async () => {
    expectErrorBody(await app.inject({ url: '/api/v1/orders/%E0%A4%A' }), 400, 'VALIDATION_ERROR');
  });

  it('a NUL character, which PostgreSQL text cannot hold, is 400 naming the field', async () => {
    const response = await app.inject({ method: 'POST', url: '/probe/body', payload: { name: 'Jo\u0000ana' } });
    expect(expectErrorBody(response, 400, 'VALIDATION_ERROR').details).toEqual({ 'body.name': 'must not contain a NUL character' });
    expect(expectErrorBody(await app.inject({ url: '/probe/query?limit=5%00' }), 400, 'VALIDATION_ERROR').details).toHaveProperty(['querystring.limit']);
  });

  it('a lone surrogate (text no UTF-8 encodes, jsonb refuses) is 400 naming the field, in a value or a key', async () => {
    const loneSurrogate = '{"name":"Jo\\ud800ana"}';
    const response = await app.inject({ method: 'POST', url: '/probe/body', headers: { 'content-type': 'application/json' }, payload: loneSurrogate });
    expect(expectErrorBody(response, 400, 'VALIDATION_ERROR').details).toEqual({ 'body.name': 'must be well-formed Unicode (no lone surrogate)' });
    const inKey = await app.inject({ method: 'POST', url: '/probe/body', headers: { 'content-type': 'application/json' }, payload: '{"name":"Joana","\\udc00":1}' });
    expect(expectErrorBody(inKey, 400, 'VALIDATION_ERROR').details).toEqual({ body: 'must be well-formed Unicode (no lone surrogate)' });
    // A surrogate pair is one character, well formed.
    expect((await app.inject({ method: 'POST', url: '/probe/body', headers: { 'content-type': 'application/json' }, payload: '{"name":"Jo\\ud83d\\ude42"}' })).statusCode).toBe(200);
  });

  it('unknown routes are 404 NOT_FOUND', async () => {
    expectErrorBody(await app.inject({ url: '/api/v1/nope' }), 404, 'NOT_FOUND');
    expectErrorBody(await app.inject({ method: 'DELETE', url: '/healthz' }), 404, 'NOT_FOUND');
  });

  it('domain errors keep their code, status and details', async () => {
    const body = expectErrorBody(await app.inject({ url: '/probe/conflict' }), 409, 'CONFLICT');
    expect(body).toMatchObject({ message: 'already exists', details: { existingId: 'abc' } });
  });

  it('a database pool with no connection free in time is 503 SERVICE_UNAVAILABLE with Retry-After, not 500', async () => {
    const response = await app.inject({ method: 'GET', url: '/probe/pool-exhausted' });
    expect(expectErrorBody(response, 503, 'SERVICE_UNAVAILABLE').message).toBe('The service is busy; retry shortly');
    expect(response.headers['retry-after']).toBe('1');
  });

  it('unexpected errors are 500 INTERNAL_ERROR without internals', async () => {
    const response = await app.inject({ url: '/probe/crash' });
    const body = expectErrorBody(response, 500, 'INTERNAL_ERROR');
    expect(body.message).toBe('An unexpected error occurred');
    expect(response.body).not.toMatch(/10\.0\.0\.5|password|secret|stack|at /);
  });

  describe('x-request-id', () => {
    it('is generated when absent, echoed, and equal to requestId', async () => {
      const response = await app.inject({ url: '/api/v1/nope' });
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expectErrorBody(response, 404, 'NOT_FOUND');
    });

    it("keeps a caller's sane id", async () => {
      const response = await app.inject({ url: '/api/v1/nope', headers: { 'x-request-id': 'client-abc_123:4.5' } });
      expect(response.headers['x-request-id']).toBe('client-abc_123:4.5');
      expect(response.json().requestId).toBe('client-abc_123:4.5');
    });

    it('replaces an id that is too long or has odd characters', async () => {
      for (const bad of ['x'.repeat(129), 'has space', 'semi;colon', '<script>']) {
        const response = await app.inject({ url: '/healthz', headers: { 'x-request-id': bad } });
        expect(response.headers['x-request-id']).not.toBe(bad);
        expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      }
    });

    it('is set on successful answers too', async () => {
      const response = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'abc' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-request-id']).toBe('abc');
    });
  });
});
