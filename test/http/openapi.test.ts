import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV_SCHEMA } from '../../src/config/schema.ts';
import { DEFAULT_PORT } from '../../src/http/openapi.ts';
import { OPERATION_IDS } from '../../src/http/openapi-operations.ts';
import { type TestContext, createTestContext, expectErrorBody } from '../helpers/app.ts';

type Operation = {
  operationId?: string;
  tags?: string[];
  servers?: Array<{ url: string }>;
  security?: unknown[];
  parameters?: Array<{ name: string; in: string; required?: boolean; schema: { default?: unknown } }>;
  requestBody?: { required?: boolean; content: Record<string, { example?: unknown; schema: { required?: string[]; $ref?: string } }> };
  responses: Record<string, { description: string; headers?: Record<string, unknown>; content?: Record<string, { schema: { $ref?: string } }> }>;
};
type OpenApi = {
  openapi: string;
  info: { version: string };
  servers: Array<{ url: string; variables?: Record<string, { default: string; enum?: string[] }> }>;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, { title?: string; required?: string[] }> };
};

const PUBLIC_API_ROUTES = new Set(['POST /auth/token', 'POST /auth/sessions', 'POST /admin/auth/sessions', 'POST /admin/auth/invitations/{token}', 'POST /auth/password-resets', 'POST /auth/password-resets/{token}', 'POST /auth/invitations/{token}', 'GET /.well-known/jwks.json', 'GET /wallet/fee-payer']);
const ROOT_ROUTES = new Set(['GET /healthz', 'GET /readyz', 'GET /metrics']);
/** Schemas the SDK and integrators name: each must be one component, never an inline copy. */
const NAMED_SCHEMAS = ['Error', 'Order', 'OrderTransaction', 'OrderPage', 'Receiver', 'ReceiverPage', 'Quote', 'Merchant', 'WebhookEndpoint', 'WebhookDelivery', 'Settlement', 'LedgerEntry'];

/** Every `title` of a schema inside `node` (not inside examples), with where it is. */
function titlesIn(node: unknown, at: string, found: string[] = []): string[] {
  if (typeof node !== 'object' || node === null) return found;
  const record = node as Record<string, unknown>;
  if (typeof record.title === 'string') found.push(`${record.title} at ${at}`);
  for (const [key, value] of Object.entries(record)) if (key !== 'example' && key !== 'examples') titlesIn(value, `${at}/${key}`, found);
  return found;
}

describe('OpenAPI document and route guards', () => {
  let ctx: TestContext;
  let doc: OpenApi;
  let operationsDoc: OpenApi;

  beforeAll(async () => {
    ctx = await createTestContext();
    const response = await ctx.app.inject({ url: '/api/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    doc = response.json();
    const root = await ctx.app.inject({ url: '/openapi.json' });
    expect(root.statusCode).toBe(200);
    operationsDoc = root.json();
  });
  afterAll(() => ctx.close());

  const operations = (document = doc) =>
    Object.entries(document.paths).flatMap(([path, methods]) =>
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

  it('serves /api/v1 with paths relative to it; the root operations are a document of their own, whose server is the root', () => {
    // The first server is absolute (generators and Prism take it as the base URL), the second the serving origin.
    expect(doc.servers.map((server) => server.url)).toEqual(['{scheme}://{host}:{port}/api/v1', '/api/v1']);
    expect(Object.keys(doc.paths).filter((path) => path.startsWith('/api/v1'))).toEqual([]);
    // Generators give a client the document's server and ignore an operation's own.
    for (const { key, operation } of [...operations(), ...operations(operationsDoc)]) expect(operation.servers, key).toBeUndefined();
    expect(operations().filter(({ key }) => ROOT_ROUTES.has(key))).toEqual([]);
    expect(operationsDoc.servers.map((server) => server.url)).toEqual(['{scheme}://{host}:{port}', '/']);
    expect(operations(operationsDoc).map(({ key }) => key).sort()).toEqual([...ROOT_ROUTES].sort());
    expect(Object.keys(operationsDoc.components.schemas).sort()).toEqual(['DependencyStatus', 'Error', 'ErrorCode', 'Liveness', 'Readiness']);
    expect(Object.keys(doc.components.schemas)).not.toContain('Liveness');
  });

  it("the absolute server's variables default to a service started locally with the configuration's defaults", () => {
    for (const document of [doc, operationsDoc]) {
      const variables = document.servers[0]!.variables!;
      expect(Object.keys(variables).sort()).toEqual(['host', 'port', 'scheme']);
      expect(variables.scheme).toMatchObject({ default: 'http', enum: ['http', 'https'] });
      expect(variables.host!.default).toBe('localhost');
      expect(variables.port!.default).toBe(String(DEFAULT_PORT));
    }
    expect(DEFAULT_PORT).toBe((ENV_SCHEMA.properties.PORT as { default?: unknown }).default);
  });

  it('the reference at /docs tries requests against the origin that serves it: its document lists the relative server first', async () => {
    const response = await ctx.app.inject({ url: '/docs/json' });
    expect(response.statusCode).toBe(200);
    expect((response.json() as OpenApi).servers.map((server) => server.url)).toEqual(['/api/v1', '{scheme}://{host}:{port}/api/v1']);
  });

  it('/metrics asks for METRICS_TOKEN, or nothing (the empty alternative: no token configured, outside production)', () => {
    const metrics = operations(operationsDoc).find(({ key }) => key === 'GET /metrics')!.operation;
    expect(metrics.security).toEqual([{ MetricsToken: [] }, {}]);
    expect(operationsDoc.components.securitySchemes).toHaveProperty('MetricsToken');
    expect(doc.components.securitySchemes).not.toHaveProperty('MetricsToken');
  });

  it('every named schema is one component under its title, and each use a $ref to it (generators emit it once)', () => {
    for (const name of NAMED_SCHEMAS) expect(doc.components.schemas[name]?.title, name).toBe(name);
    for (const document of [doc, operationsDoc]) {
      for (const [name, schema] of Object.entries(document.components.schemas)) {
        expect(schema.title, name).toBe(name);
        expect(titlesIn({ ...schema, title: undefined }, `#/components/schemas/${name}`), name).toEqual([]);
      }
      expect(titlesIn(document.paths, '#/paths')).toEqual([]);
    }
    const payin = doc.paths['/payin']!.post!.responses['201']!.content!['application/json']!.schema;
    expect(payin).toEqual({ $ref: '#/components/schemas/Order' });
  });

  it('every success response says what it answers (none is "Default Response")', () => {
    const described = [...operations(), ...operations(operationsDoc)].flatMap(({ key, operation }) =>
      Object.entries(operation.responses).map(([status, response]) => ({ at: `${key} ${status}`, description: response.description })),
    );
    expect(described.filter(({ description }) => description === 'Default Response')).toEqual([]);
    const describedAs = (at: string) => described.find((response) => response.at === at)?.description;
    expect(describedAs('POST /payin 201')).toBe('The created order');
    expect(describedAs('GET /receivers/{id} 200')).toBe('The receiver');
    expect(describedAs('GET /orders 200')).toBe('The page of orders');
  });

  it('every operation has its stable camelCase operationId from the table, and the table no stale entry', () => {
    const ids = operations().map(({ key, operation }) => {
      expect(operation.operationId, key).toBe(OPERATION_IDS[key]);
      expect(operation.operationId, key).toMatch(/^[a-z][A-Za-z0-9]+$/);
      return operation.operationId;
    });
    expect(new Set(ids).size).toBe(ids.length);
    expect(Object.keys(OPERATION_IDS).sort()).toEqual([...operations(), ...operations(operationsDoc)].map(({ key }) => key).sort());
  });

  it('declares every tag it uses, with a description, and uses every tag it declares', () => {
    // The webhooks section's operations (the events the service sends) carry a tag too.
    const webhookOperations = Object.values(doc.webhooks ?? {}).flatMap((methods) => Object.values(methods));
    const used = new Set([...operations().map(({ operation }) => operation), ...webhookOperations].flatMap((operation) => operation.tags ?? []));
    expect(doc.tags.map((tag) => tag.name).sort()).toEqual([...used].sort());
    for (const tag of doc.tags) expect(tag.description.length, tag.name).toBeGreaterThan(10);
    for (const { key, operation } of operations()) expect(operation.tags?.length, key).toBe(1);
  });

  it('a parameter with a default is optional, a body with an optional-only schema too, and every body has an example', () => {
    for (const { key, operation } of operations()) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.schema.default !== undefined) expect(parameter.required, `${key} ${parameter.name}`).toBe(false);
      }
      if (!operation.requestBody) continue;
      const media = operation.requestBody.content['application/json']!;
      expect(media.example, key).toBeDefined();
      const schema = media.schema.$ref ? doc.components.schemas[media.schema.$ref.replace('#/components/schemas/', '')]! : media.schema;
      // A body of alternatives (POST /payout-batches: JSON or CSV text) is required: each alternative is.
      const requiresSomething = Array.isArray(media.example) || (schema.required?.length ?? 0) > 0 || (schema as { anyOf?: unknown }).anyOf !== undefined;
      expect(operation.requestBody.required, key).toBe(requiresSomething);
    }
    const listOrders = operations().find(({ key }) => key === 'GET /orders')!.operation;
    expect(listOrders.parameters?.find((parameter) => parameter.name === 'limit')).toMatchObject({ required: false, schema: { default: 20 } });
  });

  it('every 429 names the RateLimit headers it carries', () => {
    const limited = operations().filter(({ operation }) => operation.responses['429']);
    expect(limited.length).toBeGreaterThan(20);
    for (const { key, operation } of limited) {
      expect(Object.keys(operation.responses['429']!.headers ?? {}), key).toEqual(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After']);
    }
  });

  it('merchant routes declare the credential alternatives (key and secret, bearer token, session cookie)', () => {
    const merchantOps = operations().filter(({ key, path }) => !ROOT_ROUTES.has(key) && !path.startsWith('/admin') && !PUBLIC_API_ROUTES.has(key));
    expect(merchantOps.length).toBeGreaterThan(0);
    for (const { key, operation } of merchantOps) {
      expect(operation.security, key).toEqual([{ ApiKey: [], ApiSecret: [] }, { BearerAuth: [] }, { Session: [] }]);
      expect(Object.keys(operation.responses), key).toEqual(expect.arrayContaining(['401', '403']));
    }
  });

  it('every /api/v1 route except token and JWKS refuses a request without credentials', async () => {
    const guarded = operations().filter(({ key }) => !ROOT_ROUTES.has(key) && !PUBLIC_API_ROUTES.has(key));
    for (const { key, method, path } of guarded) {
      const url = `/api/v1${path}`.replace(/\{[^}]+\}/g, '00000000-0000-7000-8000-000000000000');
      const response = await ctx.app.inject({ method: method.toUpperCase() as 'GET', url, payload: method === 'get' ? undefined : {} });
      expectErrorBody(response, 401, 'UNAUTHORIZED');
      expect(response.statusCode, key).toBe(401);
    }
  });

  it('docs/openapi.json and docs/openapi-operations.json are the documents the code serves (run `npm run openapi` after changing a route)', async () => {
    const committed = JSON.parse(await readFile(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
    expect(committed).toEqual(doc);
    const operationsCommitted = JSON.parse(await readFile(new URL('../../docs/openapi-operations.json', import.meta.url), 'utf8'));
    expect(operationsCommitted).toEqual(operationsDoc);
  });

  it('serves the interactive reference at /docs', async () => {
    const response = await ctx.app.inject({ url: '/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
  });
});
