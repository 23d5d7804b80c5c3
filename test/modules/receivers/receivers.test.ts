/**
 * Receivers (POST /receivers, GET /receivers, GET and PATCH /receivers/{id}), happy paths:
 * PF and PJ creation with normalised documents and default limits, paging and filters, one
 * receiver, and contact updates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, type TestMerchant, createTestContext } from '../../helpers/app.ts';
import { formatCpfText, randomCnpj, randomCpf } from '../../helpers/documents.ts';
import { SOLANA_ADDRESS, receiversFixture } from './helpers.ts';

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
  it('creates a PF receiver from a formatted CPF, normalised, PENDING, with default limits', async () => {
    const cpf = randomCpf();
    const response = await call('POST', '/receivers', {
      type: 'PF',
      document: formatCpfText(cpf),
      name: 'Maria Silva',
      email: 'maria@example.com',
      phone: '+5511998765432',
      addressState: 'SP',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      merchantId: merchant.merchantId,
      type: 'PF',
      documentType: 'CPF',
      document: cpf,
      status: 'PENDING',
      kycStatus: 'PENDING',
      kycRejectionReason: null,
      walletAddress: null,
      hasManagedWallet: false,
      phone: '+5511998765432',
      addressState: 'SP',
      addressCity: null,
      limits: { dailyLimitBrl: null, dailyTransactionLimit: null, nightTransactionsEnabled: false },
    });
  });

  it('creates a PJ receiver (night transactions on by default), numeric or alphanumeric CNPJ', async () => {
    const numeric = await createReceiver({ type: 'PJ', document: randomCnpj() });
    expect(numeric).toMatchObject({ documentType: 'CNPJ', limits: { nightTransactionsEnabled: true } });
    const alphanumeric = await createReceiver({ type: 'PJ', document: '12.abc.345/01de-35' });
    expect(alphanumeric.document).toBe('12ABC34501DE35');
  });

  it('takes limits and a wallet address from the body', async () => {
    const receiver = await createReceiver({
      walletAddress: SOLANA_ADDRESS,
      limits: { dailyLimitBrl: 1500.5, dailyTransactionLimit: 3, nightTransactionsEnabled: true },
    });
    expect(receiver.walletAddress).toBe(SOLANA_ADDRESS);
    expect(receiver.limits).toEqual({ dailyLimitBrl: 1500.5, dailyTransactionLimit: 3, nightTransactionsEnabled: true });
  });

  it('records createManagedWallet for the wallets module', async () => {
    const receiver = await createReceiver({ createManagedWallet: true });
    const row = await ctx.database.db.selectFrom('receivers').select('managed_wallet_requested').where('id', '=', receiver.id).executeTakeFirstOrThrow();
    expect(row.managed_wallet_requested).toBe(true);
  });
});

describe('GET /receivers and /receivers/{id}', () => {
  it('pages newest first, filters, and never shows another merchant’s receivers', async () => {
    const own = await ctx.createMerchant('Lister');
    const created = [];
    for (let i = 0; i < 3; i++) created.push(await createReceiver({ name: `R${i}` }, own));
    await createReceiver({}, other);
    const page1 = await call('GET', '/receivers?limit=2', undefined, own);
    expect(page1.json()).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect(page1.json().data.map((r: { id: string }) => r.id)).toEqual([created[2]!.id, created[1]!.id]);
    const page2 = await call('GET', '/receivers?limit=2&page=2', undefined, own);
    expect(page2.json().data.map((r: { id: string }) => r.id)).toEqual([created[0]!.id]);
    expect((await call('GET', '/receivers?status=ACTIVE', undefined, own)).json()).toMatchObject({ total: 0, data: [] });
    expect((await call('GET', '/receivers?kycStatus=PENDING&type=PF', undefined, own)).json().total).toBe(3);
  });

  it('answers one receiver', async () => {
    const receiver = await createReceiver();
    expect((await call('GET', `/receivers/${receiver.id}`)).json()).toEqual(receiver);
  });
});

describe('PATCH /receivers/{id} (spec rules)', () => {
  it('updates contact fields and answers the full updated receiver', async () => {
    const receiver = await createReceiver();
    const response = await call('PATCH', `/receivers/${receiver.id}`, {
      name: 'Maria S. Souza',
      email: 'new@example.com',
      phone: '+5521999998888',
      addressStreet: 'Rua A',
      addressNumber: '10',
      addressComplement: 'ap 1',
      addressNeighborhood: 'Centro',
      addressCity: 'Rio de Janeiro',
      addressState: 'RJ',
      addressZipCode: '20000-000',
    });
    expect(response.statusCode).toBe(200);
    const updated = response.json();
    expect(updated).toMatchObject({ id: receiver.id, name: 'Maria S. Souza', email: 'new@example.com', addressState: 'RJ', addressZipCode: '20000-000', document: receiver.document });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(receiver.updatedAt));
    expect((await call('GET', `/receivers/${receiver.id}`)).json()).toEqual(updated);
  });
});
