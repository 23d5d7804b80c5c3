/**
 * Receivers across merchants and without credentials: another merchant's receiver is 404 (not
 * 403) to read or change, and stays unchanged; the routes need credentials.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, type TestMerchant, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { receiversFixture } from './helpers.ts';

let ctx: TestContext;
let merchant: TestMerchant;
let other: TestMerchant;
const { call, createReceiver } = receiversFixture(() => ctx, () => merchant);

beforeAll(async () => {
  ctx = await createTestContext();
  merchant = await ctx.createMerchant('Merchant A');
  other = await ctx.createMerchant('Merchant B');
});
afterAll(() => ctx?.close());

describe('GET /receivers and /receivers/{id}', () => {
  it('another merchant’s receiver is 404', async () => {
    const receiver = await createReceiver();
    expectErrorBody(await call('GET', `/receivers/${receiver.id}`, undefined, other), 404, 'NOT_FOUND');
  });

  it('without credentials the receiver routes are 401', async () => {
    const receiver = await createReceiver();
    for (const [method, url] of [
      ['GET', '/receivers'],
      ['POST', '/receivers'],
      ['GET', `/receivers/${receiver.id}`],
      ['PATCH', `/receivers/${receiver.id}`],
      ['GET', `/receivers/${receiver.id}/limits`],
      ['PUT', `/receivers/${receiver.id}/limits`],
      ['POST', `/receivers/${receiver.id}/kyc`],
    ] as const) {
      expectErrorBody(await ctx.app.inject({ method, url: `/api/v1${url}`, ...(method === 'GET' ? {} : { payload: {} }) }), 401, 'UNAUTHORIZED');
    }
    expect((await call('GET', `/receivers/${receiver.id}`)).json()).toEqual(receiver);
  });
});

describe('PATCH /receivers/{id} (spec rules)', () => {
  it('another merchant’s receiver is 404 and stays unchanged', async () => {
    const receiver = await createReceiver();
    expectErrorBody(await call('PATCH', `/receivers/${receiver.id}`, { name: 'Hijack' }, other), 404, 'NOT_FOUND');
    expect((await call('GET', `/receivers/${receiver.id}`)).json().name).toBe(receiver.name);
  });
});
