/**
 * The operator API's merchant credentials, errors: unknown merchants (404) and malformed ids
 * (400), creating nothing.
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

const { admin, createViaApi } = adminFixture(() => ctx);

describe('credentials', () => {
  it('unknown merchant is 404 for issue and list; malformed ids are 400', async () => {
    const unknown = randomUUID();
    expectErrorBody(await admin('POST', `/merchants/${unknown}/credentials`), 404, 'NOT_FOUND');
    expectErrorBody(await admin('GET', `/merchants/${unknown}/credentials`), 404, 'NOT_FOUND');
    expectErrorBody(await admin('GET', '/merchants/nope/credentials'), 400, 'VALIDATION_ERROR');
    const { merchant } = await createViaApi('Bad credential id');
    const body = expectErrorBody(await admin('DELETE', `/merchants/${merchant.id}/credentials/nope`), 400, 'VALIDATION_ERROR');
    expect(Object.keys(body.details ?? {})).toEqual(['params.credentialId']);
    const count = await ctx.database.db
      .selectFrom('api_credentials')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('merchant_id', '=', unknown)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });
});
