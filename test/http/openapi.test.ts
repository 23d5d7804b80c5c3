import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, createTestContext, expectErrorBody } from '../helpers/app.ts';

type Operation = { security?: unknown[]; responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }> };
type OpenApi = {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
};

const PUBLIC_API_ROUTES = new Set(['POST /api/v1/auth/token', 'GET /api/v1/.well-known/jwks.json', 'GET /api/v1/wallet/fee-payer']);

describe('OpenAPI document and route guards', () => {
  let ctx: TestContext;
  let doc: OpenApi;

  beforeAll(async () => {
    ctx = await createTestContext();
    const response = await ctx.app.inject({ url: '/api/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    doc = response.json();
  });
  afterAll(() => ctx.close());

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, method, path, operation })),
    );

  it('is OpenAPI 3.1 with info.version 1.0.0 and both security schemes', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.components.securitySchemes).toMatchObject({
      ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      ApiSecret: { type: 'apiKey', in: 'header', name: 'x-api-secret' },
      BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    });
    expect(doc.components.schemas).toHaveProperty('Error');
  });

  it('documents every route with a 2xx response and its error responses as the Error object', () => {
    expect(operations().length).toBeGreaterThan(10);
    for (const { key, operation } of operations()) {
      const statuses = Object.keys(operation.responses);
      expect(statuses.some((status) => status.startsWith('2')), key).toBe(true);
      expect(statuses, key).toContain('500');
      for (const status of statuses.filter((s) => Number(s) >= 400)) {
        expect(operation.responses[status]?.content?.['application/json']?.schema.$ref, `${key} ${status}`).toBe('#/components/schemas/Error');
      }
    }
  });

  it('merchant routes declare both credential alternatives', () => {
    const merchantOps = operations().filter(({ key, path }) => path.startsWith('/api/v1/') && !path.startsWith('/api/v1/admin') && !PUBLIC_API_ROUTES.has(key));
    expect(merchantOps.length).toBeGreaterThan(0);
    for (const { key, operation } of merchantOps) {
      expect(operation.security, key).toEqual([{ ApiKey: [], ApiSecret: [] }, { BearerAuth: [] }]);
      expect(Object.keys(operation.responses), key).toEqual(expect.arrayContaining(['401', '403']));
    }
  });

  it('every /api/v1 route except token and JWKS refuses a request without credentials', async () => {
    const guarded = operations().filter(({ key, path }) => path.startsWith('/api/v1/') && !PUBLIC_API_ROUTES.has(key));
    for (const { key, method, path } of guarded) {
      const url = path.replace(/\{[^}]+\}/g, '00000000-0000-7000-8000-000000000000');
      const response = await ctx.app.inject({ method: method.toUpperCase() as 'GET', url, payload: method === 'get' ? undefined : {} });
      expectErrorBody(response, 401, 'UNAUTHORIZED');
      expect(response.statusCode, key).toBe(401);
    }
  });

  it('docs/openapi.json is the document the code serves (run `npm run openapi` after changing a route)', async () => {
    const committed = JSON.parse(await readFile(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
    expect(committed).toEqual(doc);
  });

  it('serves the interactive reference at /docs', async () => {
    const response = await ctx.app.inject({ url: '/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
  });
});
