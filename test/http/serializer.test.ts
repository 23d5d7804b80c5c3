import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { buildSerializer } from '../../src/http/serializer.ts';

const route = (schema: unknown) => ({ method: 'GET', url: '/thing', httpStatus: '200', schema });
const Thing = () => Type.Object({ id: Type.String(), amount: Type.Number() });
const Shared = { $id: 'Shared', type: 'object', properties: { note: Type.String() } };

describe('response serializers, compiled once per schema', () => {
  it('serializes by the schema: undeclared fields never leave', () => {
    const serialize = buildSerializer({}, {})(route(Thing()));
    expect(JSON.parse(serialize({ id: 'a', amount: 1.5, secret: 'never' }))).toEqual({ id: 'a', amount: 1.5 });
  });

  it('an equal schema written again (a new object, as an inline route schema of the next app) gets the same serializer', () => {
    expect(buildSerializer({}, {})(route(Thing()))).toBe(buildSerializer({}, {})(route(Thing())));
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
});
