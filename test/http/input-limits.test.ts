/**
 * Issue 14, input limits: a deeply nested JSON body is 400 VALIDATION_ERROR on every route (it
 * used to overflow the stack in a recursive walk: 500), and nothing on the request path recurses
 * over what the client sent.
 */
import fc from 'fast-check';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/platform/idempotency/fingerprint.ts';
import { MAX_JSON_DEPTH, jsonNestingDepth } from '../../src/http/json-body.ts';
import { StrictObject } from '../../src/http/schemas.ts';
import type { App } from '../../src/http/types.ts';
import { validatorCompiler } from '../../src/http/validator.ts';
import { ADMIN_TOKEN, type TestContext, type TestMerchant, createTestContext, expectErrorBody } from '../helpers/app.ts';

const nested = (depth: number, leaf = '1') => `${'{"a":['.repeat(depth)}${leaf}${']}'.repeat(depth)}`;
/** `depth` levels: an object holding an array counts two. */
const nestedArrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** The recursive definition canonicalJson had: the iterative one must write exactly this. */
function recursiveCanonicalJson(value: unknown): string {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return recursiveCanonicalJson((value as { toJSON(): unknown }).toJSON());
  }
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : recursiveCanonicalJson(item))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${recursiveCanonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

describe('JSON nesting depth', () => {
  it('counts objects and arrays, not brackets inside strings', () => {
    expect(jsonNestingDepth('1')).toBe(0);
    expect(jsonNestingDepth('{"a":[1,{"b":2}]}')).toBe(3);
    expect(jsonNestingDepth('{"a":"[[[{{{"}')).toBe(1);
    expect(jsonNestingDepth('{"a":"quote \\" [[[ still a string"}')).toBe(1);
    expect(jsonNestingDepth('["\\\\", [[]]]')).toBe(3);
    expect(jsonNestingDepth(nestedArrays(50_000), 32)).toBe(33);
  });
});

describe('iterative walkers', () => {
  const deepValue = (depth: number) => {
    let value: unknown = 'x\u0000';
    for (let i = 0; i < depth; i++) value = { a: [value] };
    return value;
  };

  it('canonicalJson writes what the recursive definition wrote, for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(recursiveCanonicalJson(value));
      }),
      { numRuns: 300 },
    );
    const odd = { b: undefined, a: [undefined, () => 1, new Date(0)], c: { toJSON: () => ({ z: 1, y: [2] }) }, f: () => 1 };
    expect(canonicalJson(odd)).toBe(recursiveCanonicalJson(odd));
    expect(canonicalJson(undefined)).toBe('null');
  });

  it('canonicalJson and the NUL check walk a 100,000-deep value without overflowing the stack', () => {
    const value = deepValue(100_000);
    expect(() => recursiveCanonicalJson(value)).toThrow(RangeError);
    expect(canonicalJson(value)).toMatch(/^\{"a":\[\{"a":\[/);
    const validate = validatorCompiler({ schema: Type.Unknown(), httpPart: 'body', method: 'POST', url: '/x' }) as (input: unknown) => { error?: Array<{ instancePath: string }> };
    expect(validate(value).error?.[0]?.instancePath).toBe(`${'/a/0'.repeat(100_000)}`);
  });
});

describe('deep bodies are 400 VALIDATION_ERROR, never 500', () => {
  let ctx: TestContext;
  let app: App;
  let merchant: TestMerchant;

  beforeAll(async () => {
    ctx = await createTestContext();
    merchant = await ctx.createMerchant('Deep Bodies');
    app = await ctx.buildApp({}, undefined, (probe) => {
      probe.post('/probe/any', { schema: { body: StrictObject({ a: Type.Optional(Type.Unknown()) }) } }, async () => ({ ok: true }));
    });
  });
  afterAll(() => ctx.close());

  const post = (payload: string) => app.inject({ method: 'POST', url: '/probe/any', headers: { 'content-type': 'application/json' }, payload });

  it(`accepts ${MAX_JSON_DEPTH} levels and refuses ${MAX_JSON_DEPTH + 1} and 20,000`, async () => {
    expect((await post(`{"a":${nestedArrays(MAX_JSON_DEPTH - 1)}}`)).statusCode).toBe(200);
    const tooDeep = expectErrorBody(await post(`{"a":${nestedArrays(MAX_JSON_DEPTH)}}`), 400, 'VALIDATION_ERROR');
    expect(tooDeep.details).toEqual({ body: `must not nest deeper than ${MAX_JSON_DEPTH} levels` });
    expectErrorBody(await post(nested(20_000)), 400, 'VALIDATION_ERROR');
  });

  it('on every operation of the OpenAPI document that takes a body, authenticated and with an Idempotency-Key', async () => {
    const doc = (await app.inject({ url: '/api/v1/openapi.json' })).json() as {
      servers: Array<{ url: string }>;
      paths: Record<string, Record<string, { requestBody?: unknown; security?: Array<Record<string, unknown>> }>>;
    };
    // The relative server: the first is absolute, with variables, for generators.
    const base = doc.servers.find(({ url }) => url.startsWith('/'))!.url.replace(/\/$/, '');
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => operation.requestBody !== undefined)
        .map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
    );
    expect(operations.length).toBeGreaterThan(20);
    const payload = nested(20_000);
    for (const { method, path, operation } of operations) {
      const isAdmin = operation.security?.some((requirement) => 'AdminToken' in requirement);
      const headers = {
        'content-type': 'application/json',
        'idempotency-key': `deep-${method}-${path}`,
        ...(isAdmin ? { authorization: `Bearer ${ADMIN_TOKEN}` } : merchant.headers),
      };
      const url = `${base}${path}`.replace(/\{[^}]+\}/g, '00000000-0000-7000-8000-000000000000');
      const response = await app.inject({ method: method as 'POST', url, headers, payload });
      expect(`${method} ${path} ${response.statusCode} ${response.json().error}`).toBe(`${method} ${path} 400 VALIDATION_ERROR`);
    }
  });
});
