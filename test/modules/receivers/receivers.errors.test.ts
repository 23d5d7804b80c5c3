/**
 * Receivers, errors: every body rule of POST and PATCH is 400 VALIDATION_ERROR naming the field
 * (and changes nothing), a duplicate document is 409, unknown ids are 404 and malformed ones 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, type TestMerchant, createTestContext, expectErrorBody } from '../../helpers/app.ts';
import { formatCpfText, randomCpf } from '../../helpers/documents.ts';
import { SOLANA_ADDRESS, UNKNOWN_ID, receiversFixture } from './helpers.ts';

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

describe('POST /receivers', () => {
  it.each([
    ['a CPF with a wrong check digit', { document: '529.982.247-26' }, 'body.document'],
    ['a CNPJ for a PF', { document: '11.222.333/0001-81' }, 'body.document'],
    ['a CPF for a PJ', { type: 'PJ', document: '529.982.247-25' }, 'body.document'],
    ['an unknown person type', { type: 'XX' }, 'body.type'],
    ['a bad e-mail', { email: 'not-an-email' }, 'body.email'],
    ['a one-letter name', { name: 'M' }, 'body.name'],
    ['a name of spaces only', { name: '   ' }, 'body.name'],
    ['a non-Solana wallet address', { walletAddress: '0x52908400098527886E0F7030069857D2E4169EE7' }, 'body.walletAddress'],
    ['a wallet address and a managed wallet', { walletAddress: SOLANA_ADDRESS, createManagedWallet: true }, 'body.createManagedWallet'],
    ['a negative daily count', { limits: { dailyTransactionLimit: -1 } }, 'body.limits.dailyTransactionLimit'],
    ['a limit with 3 decimals', { limits: { dailyLimitBrl: 10.005 } }, 'body.limits.dailyLimitBrl'],
    ['an unknown field', { nickname: 'x' }, 'body.nickname'],
    ['a 3-letter state', { addressState: 'SPX' }, 'body.addressState'],
  ])('refuses %s with VALIDATION_ERROR naming the field', async (_case, override, field) => {
    const response = await call('POST', '/receivers', { type: 'PF', document: randomCpf(), name: 'Maria', email: 'm@example.com', ...override });
    expect(expectErrorBody(response, 400, 'VALIDATION_ERROR').details).toHaveProperty([field]);
  });

  it('refuses a second receiver with the same document (any formatting) with 409', async () => {
    const cpf = randomCpf();
    const first = await createReceiver({ document: cpf });
    const response = await call('POST', '/receivers', { type: 'PF', document: formatCpfText(cpf), name: 'Other', email: 'o@example.com' });
    expect(expectErrorBody(response, 409, 'CONFLICT').details).toEqual({ existingReceiverId: first.id });
    // Another merchant may register the same person.
    expect((await createReceiver({ document: cpf }, other)).document).toBe(cpf);
  });
});

describe('GET /receivers and /receivers/{id}', () => {
  it('limit over 100 and unknown filters are 400', async () => {
    expect(expectErrorBody(await call('GET', '/receivers?limit=101'), 400, 'VALIDATION_ERROR').details).toHaveProperty(['querystring.limit']);
    expectErrorBody(await call('GET', '/receivers?status=GONE'), 400, 'VALIDATION_ERROR');
  });

  it('unknown ids are 404, malformed 400', async () => {
    expectErrorBody(await call('GET', `/receivers/${UNKNOWN_ID}`), 404, 'NOT_FOUND');
    expectErrorBody(await call('GET', '/receivers/not-a-uuid'), 400, 'VALIDATION_ERROR');
  });
});

describe('PATCH /receivers/{id} (spec rules)', () => {
  it('rule 1: at least one field', async () => {
    const receiver = await createReceiver();
    const body = expectErrorBody(await call('PATCH', `/receivers/${receiver.id}`, {}), 400, 'VALIDATION_ERROR');
    expect(body.message).toMatch(/at least one field/i);
  });

  it.each(['document', 'type', 'documentType'])('rule 2: %s is immutable', async (field) => {
    const receiver = await createReceiver();
    const response = await call('PATCH', `/receivers/${receiver.id}`, { name: 'Valid Name', [field]: field === 'type' ? 'PJ' : '12345678909' });
    const body = expectErrorBody(response, 400, 'VALIDATION_ERROR');
    expect(body.message).toMatch(/immutable/);
    expect(body.details).toEqual({ [`body.${field}`]: 'is immutable' });
    expect((await call('GET', `/receivers/${receiver.id}`)).json().name).toBe(receiver.name);
  });

  it('rule 3: name has 2 to 255 characters', async () => {
    const receiver = await createReceiver();
    for (const name of ['A', 'x'.repeat(256)]) {
      expect(expectErrorBody(await call('PATCH', `/receivers/${receiver.id}`, { name }), 400, 'VALIDATION_ERROR').details).toHaveProperty(['body.name']);
    }
    for (const name of ['Al', 'x'.repeat(255)]) expect((await call('PATCH', `/receivers/${receiver.id}`, { name })).statusCode).toBe(200);
  });

  it('rule 4: email in e-mail format', async () => {
    const receiver = await createReceiver();
    for (const email of ['plain', 'a@', '@b.com', 'a b@c.com']) {
      expect(expectErrorBody(await call('PATCH', `/receivers/${receiver.id}`, { email }), 400, 'VALIDATION_ERROR').details).toHaveProperty(['body.email']);
    }
  });

  it.each([
    ['phone', 'x'.repeat(21), 'x'.repeat(20)],
    ['addressZipCode', '1'.repeat(11), '1'.repeat(10)],
    ['addressState', 'S', 'SP'],
    ['addressState', 'ZZ', 'DF'],
  ])('length limits: %s', async (field, tooLong, fits) => {
    const receiver = await createReceiver();
    expect(expectErrorBody(await call('PATCH', `/receivers/${receiver.id}`, { [field]: tooLong }), 400, 'VALIDATION_ERROR').details).toHaveProperty([`body.${field}`]);
    expect((await call('PATCH', `/receivers/${receiver.id}`, { [field]: fits })).json()[field]).toBe(fits);
  });

  it('refuses unknown fields and non-string values', async () => {
    const receiver = await createReceiver();
    expectErrorBody(await call('PATCH', `/receivers/${receiver.id}`, { nickname: 'x' }), 400, 'VALIDATION_ERROR');
    expectErrorBody(await call('PATCH', `/receivers/${receiver.id}`, { phone: 11999998888 }), 400, 'VALIDATION_ERROR');
  });
});
