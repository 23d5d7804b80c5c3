/**
 * The ledger's queries, errors: paging and filters out of range, or unknown, are 400
 * VALIDATION_ERROR.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestClock, type TestContext, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { NOON_SP, ledgerFixture } from './helpers.ts';

const clock = new TestClock(new Date(NOON_SP));
let ctx: TestContext;
const { call, feeMerchant } = ledgerFixture(() => ctx);

beforeAll(async () => {
  ctx = await createTestContext({}, { clock });
});
afterAll(() => ctx?.close());
beforeEach(() => clock.set(NOON_SP));

describe('GET /ledger/settlements', () => {
  it('limit (or its deprecated alias pageSize) above 100 is 400 VALIDATION_ERROR naming it', async () => {
    const { merchant } = await feeMerchant('Loja Saldo');
    expect(expectErrorBody(await call('GET', '/ledger/settlements?limit=101', merchant), 400, 'VALIDATION_ERROR').details).toHaveProperty(['querystring.limit']);
    expect(expectErrorBody(await call('GET', '/ledger/settlements?pageSize=101', merchant), 400, 'VALIDATION_ERROR').details).toHaveProperty(['querystring.pageSize']);
  });

  it('limit and pageSize with different values are 400; with the same value they are one', async () => {
    const { merchant } = await feeMerchant('Loja Alias');
    expect(expectErrorBody(await call('GET', '/ledger/settlements?limit=5&pageSize=6', merchant), 400, 'VALIDATION_ERROR').details).toHaveProperty(['querystring.pageSize']);
    expect((await call('GET', '/ledger/settlements?limit=5&pageSize=5', merchant)).json().pagination.pageSize).toBe(5);
  });
});

describe('GET /ledger/entries', () => {
  it('a page size or page of 0, a settled filter that is not a boolean and an unknown parameter are 400', async () => {
    const { merchant } = await feeMerchant('Loja Paginas');
    for (const bad of ['pageSize=0', 'limit=0', 'page=0', 'settled=maybe', 'size=5']) {
      expectErrorBody(await call('GET', `/ledger/entries?${bad}`, merchant), 400, 'VALIDATION_ERROR');
    }
  });
});
