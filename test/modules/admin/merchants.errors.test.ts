/**
 * The operator API's merchants, errors: body, query and path validation (400) and unknown
 * merchants (404). None of them creates a merchant or an audit row.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, expectErrorBody, type TestContext } from '../../helpers/app.ts';
import { adminFixture } from './helpers.ts';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});

afterAll(async () => {
  await ctx?.close();
});

const { admin, createViaApi, auditRows } = adminFixture(() => ctx);

describe('POST /admin/merchants', () => {
  it('validates the name: too short, too long, missing, wrong type, and unknown properties are 400', async () => {
    const before = (await auditRows()).length;
    const countBefore = await ctx.app.services.merchants.countMerchants();

    const short = expectErrorBody(await admin('POST', '/merchants', { name: 'A' }), 400, 'VALIDATION_ERROR');
    expect(Object.keys(short.details ?? {})).toEqual(['body.name']);

    const long = expectErrorBody(await admin('POST', '/merchants', { name: 'x'.repeat(256) }), 400, 'VALIDATION_ERROR');
    expect(Object.keys(long.details ?? {})).toEqual(['body.name']);

    const missing = expectErrorBody(await admin('POST', '/merchants', {}), 400, 'VALIDATION_ERROR');
    expect(missing.details).toEqual({ 'body.name': 'is required' });

    const wrongType = expectErrorBody(await admin('POST', '/merchants', { name: 42 }), 400, 'VALIDATION_ERROR');
    expect(Object.keys(wrongType.details ?? {})).toEqual(['body.name']);

    const extra = expectErrorBody(await admin('POST', '/merchants', { name: 'Fine Name', status: 'DISABLED' }), 400, 'VALIDATION_ERROR');
    expect(extra.details).toEqual({ 'body.status': 'is not an allowed property' });

    expect((await auditRows()).length).toBe(before);
    expect(await ctx.app.services.merchants.countMerchants()).toBe(countBefore);

    // The boundaries themselves are accepted.
    expect((await createViaApi('AB')).merchant.name).toBe('AB');
    expect((await createViaApi('y'.repeat(255))).merchant.name).toBe('y'.repeat(255));
  });
});

describe('GET /admin/merchants', () => {
  it.each([
    ['page=1&limit=101', 'querystring.limit'],
    ['page=1&limit=0', 'querystring.limit'],
    ['page=1&limit=abc', 'querystring.limit'],
    ['page=1&limit=2.5', 'querystring.limit'],
    ['page=1&limit=0x10', 'querystring.limit'],
    ['page=0&limit=2', 'querystring.page'],
    ['page=-1&limit=2', 'querystring.page'],
    ['page=1000001&limit=2', 'querystring.page'],
    ['page=1&limit=2&sort=name', 'querystring.sort'],
  ])('?%s is 400 VALIDATION_ERROR naming %s', async (query, field) => {
    const body = expectErrorBody(await admin('GET', `/merchants?${query}`), 400, 'VALIDATION_ERROR');
    expect(Object.keys(body.details ?? {})).toEqual([field]);
  });
});

describe('GET /admin/merchants/{id}', () => {
  it('an unknown id is 404 and a malformed id is 400', async () => {
    const { merchant } = await createViaApi('Lookup');
    expectErrorBody(await admin('GET', `/merchants/${randomUUID()}`), 404, 'NOT_FOUND');

    for (const bad of ['not-a-uuid', '123', `${merchant.id}x`, "1' or '1'='1"]) {
      const body = expectErrorBody(await admin('GET', `/merchants/${encodeURIComponent(bad)}`), 400, 'VALIDATION_ERROR');
      expect(Object.keys(body.details ?? {})).toEqual(['params.id']);
    }
  });

  // ajv-formats' uuid pattern accepts a `urn:uuid:` prefix that PostgreSQL refuses; ours does not.
  it('a urn:uuid:-prefixed id is 400 VALIDATION_ERROR, not a 500 from the database', async () => {
    const response = await admin('GET', `/merchants/urn:uuid:${randomUUID()}`);
    expectErrorBody(response, 400, 'VALIDATION_ERROR');
  });
});

describe('disable and enable', () => {
  it('unknown merchant is 404; malformed id is 400', async () => {
    for (const action of ['disable', 'enable']) {
      expectErrorBody(await admin('POST', `/merchants/${randomUUID()}/${action}`), 404, 'NOT_FOUND');
      expectErrorBody(await admin('POST', `/merchants/nope/${action}`), 400, 'VALIDATION_ERROR');
    }
  });
});
