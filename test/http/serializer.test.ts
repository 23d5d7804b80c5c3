import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSerializer, compilePendingSerializers } from '../../src/http/serializer.ts';
import { type TestContext, createTestContext } from '../helpers/app.ts';

const route = (schema: unknown) => ({ method: 'GET', url: '/thing', httpStatus: '200', schema });
const Thing = () => Type.Object({ id: Type.String(), amount: Type.Number() });
const Shared = { $id: 'Shared', type: 'object', properties: { note: Type.String() } };

describe('response serializers, compiled once per schema, when first needed', () => {
  it('serializes by the schema: undeclared fields never leave', () => {
    const serialize = buildSerializer({}, {})(route(Thing()));
    expect(JSON.parse(serialize({ id: 'a', amount: 1.5, secret: 'never' }))).toEqual({ id: 'a', amount: 1.5 });
  });

  it('an equal schema written again (a new object, as an inline route schema of the next app) gets the serializer compiled for the first', () => {
    const schema = () => Type.Object({ id: Type.String(), count: Type.Integer() });
    buildSerializer({}, {})(route(schema()))({ id: 'a', count: 1 });
    const next = buildSerializer({}, {})(route(schema()));
    expect(next).toBe(buildSerializer({}, {})(route(schema())));
    expect(JSON.parse(next({ id: 'b', count: 2, secret: 'never' }))).toEqual({ id: 'b', count: 2 });
  });

  it('another schema, other shared schemas or other options compile their own', () => {
    const base = buildSerializer({}, {})(route(Thing()));
    const other = buildSerializer({}, {})(route(Type.Object({ id: Type.String() })));
    expect(other).not.toBe(base);
    expect(JSON.parse(other({ id: 'a', amount: 1 }))).toEqual({ id: 'a' });
    expect(buildSerializer({ Shared }, {})(route(Thing()))).not.toBe(base);
    expect(buildSerializer({}, { rounding: 'ceil' })(route(Thing()))).not.toBe(base);
  });

  it('a reference to a shared schema resolves against the shared schemas it was compiled with', () => {
    const serialize = buildSerializer({ Shared }, {})(route(Type.Object({ shared: Type.Unsafe({ $ref: 'Shared#' }) })));
    expect(JSON.parse(serialize({ shared: { note: 'n', extra: 'x' } }))).toEqual({ shared: { note: 'n' } });
  });

  it('a schema that cannot compile is registered without a word, and fails when compiled, each time', () => {
    const serialize = buildSerializer({}, {})(route({ type: 'object', properties: { a: { $ref: 'missing-schema#' } } }));
    expect(() => compilePendingSerializers()).toThrow(/missing-schema/);
    // Its response fails (a 500 in a route), the next one too: nothing half-compiled is kept.
    expect(() => serialize({ a: 1 })).toThrow(/missing-schema/);
    expect(() => serialize({ a: 1 })).toThrow(/missing-schema/);
    expect(compilePendingSerializers()).toBe(0);
  });
});

describe("the app's response serializers", () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx?.close());

  it('compile, every one its routes registered, as a start compiled them before they were lazy', async () => {
    compilePendingSerializers();
    expect(compilePendingSerializers()).toBe(0);
    const response = await ctx.app.inject({ url: '/api/v1/orders' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: 'UNAUTHORIZED' });
  });
});
