import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestContext, type TestMerchant, createTestContext, expectErrorBody } from '../helpers/app.ts';
import { formatCpfText, randomCnpj, randomCpf } from '../helpers/documents.ts';

const UNKNOWN_ID = '00000000-0000-7000-8000-000000000000';
const SOLANA_ADDRESS = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

describe('receivers', () => {
  let ctx: TestContext;
  let merchant: TestMerchant;
  let other: TestMerchant;

  beforeAll(async () => {
    ctx = await createTestContext();
    merchant = await ctx.createMerchant('Merchant A');
    other = await ctx.createMerchant('Merchant B');
  });
  afterAll(() => ctx.close());

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: unknown, who: TestMerchant = merchant) =>
    ctx.app.inject({ method, url: `/api/v1${url}`, headers: who.headers, ...(payload === undefined ? {} : { payload: payload as object }) });

  const createReceiver = async (body: Record<string, unknown> = {}, who: TestMerchant = merchant) => {
    const response = await call('POST', '/receivers', { type: 'PF', document: randomCpf(), name: 'Maria Silva', email: 'maria@example.com', ...body }, who);
    if (response.statusCode !== 201) throw new Error(response.body);
    return response.json();
  };

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
    it('pages newest first, filters, and never shows another merchant’s receivers', async () => {
      const own = await ctx.createMerchant('Lister');
      const created = [];
      for (let i = 0; i < 3; i++) created.push(await createReceiver({ name: `R${i}` }, own));
      await createReceiver({}, other);
      const page1 = await call('GET', '/receivers?limit=2', undefined, own);
      expect(page1.json()).toMatchObject({ total: 3, page: 1, limit: 2 });
      expect(page1.json().data.map((r: { id: string }) => r.id)).toEqual([created[2].id, created[1].id]);
      const page2 = await call('GET', '/receivers?limit=2&page=2', undefined, own);
      expect(page2.json().data.map((r: { id: string }) => r.id)).toEqual([created[0].id]);
      expect((await call('GET', '/receivers?status=ACTIVE', undefined, own)).json()).toMatchObject({ total: 0, data: [] });
      expect((await call('GET', '/receivers?kycStatus=PENDING&type=PF', undefined, own)).json().total).toBe(3);
    });

    it('limit over 100 and unknown filters are 400', async () => {
      expect(expectErrorBody(await call('GET', '/receivers?limit=101'), 400, 'VALIDATION_ERROR').details).toHaveProperty(['querystring.limit']);
      expectErrorBody(await call('GET', '/receivers?status=GONE'), 400, 'VALIDATION_ERROR');
    });

    it('answers one receiver; unknown and foreign ids are 404, malformed 400', async () => {
      const receiver = await createReceiver();
      expect((await call('GET', `/receivers/${receiver.id}`)).json()).toEqual(receiver);
      expectErrorBody(await call('GET', `/receivers/${UNKNOWN_ID}`), 404, 'NOT_FOUND');
      expectErrorBody(await call('GET', `/receivers/${receiver.id}`, undefined, other), 404, 'NOT_FOUND');
      expectErrorBody(await call('GET', '/receivers/not-a-uuid'), 400, 'VALIDATION_ERROR');
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

    it('another merchant’s receiver is 404 and stays unchanged', async () => {
      const receiver = await createReceiver();
      expectErrorBody(await call('PATCH', `/receivers/${receiver.id}`, { name: 'Hijack' }, other), 404, 'NOT_FOUND');
      expect((await call('GET', `/receivers/${receiver.id}`)).json().name).toBe(receiver.name);
    });
  });

  describe('limits', () => {
    it('GET answers the spec shape; PUT replaces (nulls allowed)', async () => {
      const receiver = await createReceiver();
      expect((await call('GET', `/receivers/${receiver.id}/limits`)).json()).toEqual({
        receiverId: receiver.id,
        dailyLimitBrl: null,
        dailyTransactionLimit: null,
        nightTransactionsEnabled: false,
      });
      const replaced = await call('PUT', `/receivers/${receiver.id}/limits`, { dailyLimitBrl: 2500.75, dailyTransactionLimit: 5, nightTransactionsEnabled: true });
      expect(replaced.json()).toEqual({ receiverId: receiver.id, dailyLimitBrl: 2500.75, dailyTransactionLimit: 5, nightTransactionsEnabled: true });
      const cleared = await call('PUT', `/receivers/${receiver.id}/limits`, { dailyLimitBrl: null, dailyTransactionLimit: null, nightTransactionsEnabled: false });
      expect(cleared.json()).toEqual({ receiverId: receiver.id, dailyLimitBrl: null, dailyTransactionLimit: null, nightTransactionsEnabled: false });
      expect((await call('GET', `/receivers/${receiver.id}`)).json().limits).toEqual({ dailyLimitBrl: null, dailyTransactionLimit: null, nightTransactionsEnabled: false });
    });

    it('unknown or foreign receiver: 404 with the Error object', async () => {
      const receiver = await createReceiver();
      expect(expectErrorBody(await call('GET', `/receivers/${UNKNOWN_ID}/limits`), 404, 'NOT_FOUND').message).toBe('Receiver not found');
      expectErrorBody(await call('GET', `/receivers/${receiver.id}/limits`, undefined, other), 404, 'NOT_FOUND');
      expectErrorBody(
        await call('PUT', `/receivers/${receiver.id}/limits`, { dailyLimitBrl: 1, dailyTransactionLimit: 1, nightTransactionsEnabled: true }, other),
        404,
        'NOT_FOUND',
      );
    });

    it.each([
      ['a negative count', { dailyTransactionLimit: -1 }, 'body.dailyTransactionLimit'],
      ['a fractional count', { dailyTransactionLimit: 2.5 }, 'body.dailyTransactionLimit'],
      ['a negative amount', { dailyLimitBrl: -10 }, 'body.dailyLimitBrl'],
      ['an amount with 3 decimals', { dailyLimitBrl: 1.001 }, 'body.dailyLimitBrl'],
      ['a string amount', { dailyLimitBrl: '100' }, 'body.dailyLimitBrl'],
      ['a missing field', { nightTransactionsEnabled: undefined }, 'body.nightTransactionsEnabled'],
    ])('PUT refuses %s', async (_case, override, field) => {
      const receiver = await createReceiver();
      const body = { dailyLimitBrl: 100, dailyTransactionLimit: 2, nightTransactionsEnabled: false, ...override };
      expect(expectErrorBody(await call('PUT', `/receivers/${receiver.id}/limits`, body), 400, 'VALIDATION_ERROR').details).toHaveProperty([field]);
    });
  });

  describe('KYC', () => {
    const pfSubmission = { birthDate: '1990-05-17', motherName: 'Ana Silva', documents: [{ type: 'ID_FRONT', reference: 's3://kyc/1' }, { type: 'SELFIE', reference: 's3://kyc/2' }] };
    const eventsFor = (receiverId: string) =>
      ctx.database.db.selectFrom('events').selectAll().where(({ eb }) => eb.ref('payload', '->>').key('receiverId' as never), '=', receiverId).orderBy('created_at').execute();

    const adminCall = (url: string, payload?: object) =>
      ctx.app.inject({ method: 'POST', url: `/api/v1/admin${url}`, headers: admin, ...(payload ? { payload } : {}) });

    it('submit → review → reject (event) → resubmit shows the reason → approve (event, ACTIVE)', async () => {
      const receiver = await createReceiver();
      const submitted = await call('POST', `/receivers/${receiver.id}/kyc`, pfSubmission);
      expect(submitted.statusCode).toBe(200);
      expect(submitted.json()).toMatchObject({ receiverId: receiver.id, kycStatus: 'SUBMITTED', previousRejectionReason: null });

      expectErrorBody(await call('POST', `/receivers/${receiver.id}/kyc`, pfSubmission), 409, 'CONFLICT');
      expect((await adminCall(`/receivers/${receiver.id}/kyc/start-review`)).json().kycStatus).toBe('UNDER_REVIEW');

      expectErrorBody(await adminCall(`/receivers/${receiver.id}/kyc/reject`, {}), 400, 'VALIDATION_ERROR');
      const rejected = await adminCall(`/receivers/${receiver.id}/kyc/reject`, { reason: 'Selfie is blurred' });
      expect(rejected.json()).toMatchObject({ kycStatus: 'REJECTED', kycRejectionReason: 'Selfie is blurred', status: 'PENDING' });

      const resubmitted = await call('POST', `/receivers/${receiver.id}/kyc`, pfSubmission);
      expect(resubmitted.json()).toMatchObject({ kycStatus: 'SUBMITTED', previousRejectionReason: 'Selfie is blurred' });

      const approved = await adminCall(`/receivers/${receiver.id}/kyc/approve`);
      expect(approved.json()).toMatchObject({ kycStatus: 'APPROVED', status: 'ACTIVE', kycRejectionReason: null });
      expectErrorBody(await adminCall(`/receivers/${receiver.id}/kyc/approve`), 409, 'CONFLICT');

      const events = await eventsFor(receiver.id);
      expect(events.map((e) => e.event_type)).toEqual(['receiver.kyc_rejected', 'receiver.kyc_approved']);
      const [rejection, approval] = events.map((e) => e.payload);
      expect(Object.keys(rejection!).sort()).toEqual(['email', 'event', 'kycRejectionReason', 'kycReviewedAt', 'kycStatus', 'name', 'receiverId', 'timestamp', 'type']);
      expect(rejection).toMatchObject({ event: 'receiver.kyc_rejected', receiverId: receiver.id, type: 'PF', name: 'Maria Silva', email: 'maria@example.com', kycStatus: 'REJECTED', kycRejectionReason: 'Selfie is blurred' });
      expect(Object.keys(approval!).sort()).toEqual(['email', 'event', 'kycReviewedAt', 'kycStatus', 'name', 'receiverId', 'timestamp', 'type']);
      expect(approval).toMatchObject({ event: 'receiver.kyc_approved', kycStatus: 'APPROVED', kycReviewedAt: approved.json().kycReviewedAt });
      expect(approval!.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(events.every((e) => e.merchant_id === merchant.merchantId)).toBe(true);
    });

    it('operators cannot decide before a submission', async () => {
      const receiver = await createReceiver();
      expectErrorBody(await adminCall(`/receivers/${receiver.id}/kyc/approve`), 409, 'CONFLICT');
      expectErrorBody(await adminCall(`/receivers/${receiver.id}/kyc/start-review`), 409, 'CONFLICT');
      expect(await eventsFor(receiver.id)).toHaveLength(0);
    });

    it.each([
      ['PF without birthDate', 'PF', { documents: pfSubmission.documents }, 'body.birthDate'],
      ['PF with incorporationDate', 'PF', { ...pfSubmission, incorporationDate: '2000-01-01' }, 'body.incorporationDate'],
      ['PJ with birthDate', 'PJ', { ...pfSubmission, motherName: undefined }, 'body.birthDate'],
      ['a future date', 'PF', { ...pfSubmission, birthDate: '2999-01-01' }, 'body.birthDate'],
      ['an impossible date', 'PF', { ...pfSubmission, birthDate: '1990-02-30' }, 'body.birthDate'],
      ['no documents', 'PF', { ...pfSubmission, documents: [] }, 'body.documents'],
      ['an unknown document type', 'PF', { ...pfSubmission, documents: [{ type: 'PASSPORT', reference: 'x' }] }, 'body.documents.0.type'],
    ])('refuses a submission with %s', async (_case, type, body, field) => {
      const receiver = await createReceiver(type === 'PJ' ? { type: 'PJ', document: randomCnpj() } : {});
      expect(expectErrorBody(await call('POST', `/receivers/${receiver.id}/kyc`, body), 400, 'VALIDATION_ERROR').details).toHaveProperty([field]);
      expect((await call('GET', `/receivers/${receiver.id}`)).json().kycStatus).toBe('PENDING');
    });

    it('accepts a PJ submission with incorporationDate', async () => {
      const receiver = await createReceiver({ type: 'PJ', document: randomCnpj() });
      const response = await call('POST', `/receivers/${receiver.id}/kyc`, {
        incorporationDate: '2010-03-01',
        documents: [{ type: 'ARTICLES_OF_INCORPORATION', reference: 'doc-1' }],
      });
      expect(response.json().kycStatus).toBe('SUBMITTED');
    });

    it('another merchant cannot submit or see KYC of a receiver (404)', async () => {
      const receiver = await createReceiver();
      expectErrorBody(await call('POST', `/receivers/${receiver.id}/kyc`, pfSubmission, other), 404, 'NOT_FOUND');
    });

    it('sandbox: the merchant decides from PENDING through the same path, with the event', async () => {
      const receiver = await createReceiver();
      const rejectWithout = await call('POST', `/sandbox/receivers/${receiver.id}/kyc`, { decision: 'REJECT' });
      expect(expectErrorBody(rejectWithout, 400, 'VALIDATION_ERROR').details).toHaveProperty(['body.reason']);
      expectErrorBody(await call('POST', `/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' }, other), 404, 'NOT_FOUND');
      const approved = await call('POST', `/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' });
      expect(approved.json()).toMatchObject({ status: 'ACTIVE', kycStatus: 'APPROVED' });
      expect((await eventsFor(receiver.id)).map((e) => e.event_type)).toEqual(['receiver.kyc_approved']);
    });

    it('sandbox routes are absent when the sandbox is disabled', async () => {
      const receiver = await createReceiver();
      const app = await ctx.buildApp({ SANDBOX_ENABLED: 'false' });
      const response = await app.inject({ method: 'POST', url: `/api/v1/sandbox/receivers/${receiver.id}/kyc`, headers: merchant.headers, payload: { decision: 'APPROVE' } });
      expectErrorBody(response, 404, 'NOT_FOUND');
    });
  });

  describe('operator status decisions', () => {
    it('suspend, block and reactivate follow their rules and are audited', async () => {
      const receiver = await createReceiver();
      const adminCall = (action: string) => ctx.app.inject({ method: 'POST', url: `/api/v1/admin/receivers/${receiver.id}/${action}`, headers: admin });
      expectErrorBody(await adminCall('suspend'), 409, 'CONFLICT'); // PENDING cannot be suspended
      await call('POST', `/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' });
      expect((await adminCall('suspend')).json().status).toBe('SUSPENDED');
      expect((await adminCall('block')).json().status).toBe('BLOCKED');
      expectErrorBody(await adminCall('block'), 409, 'CONFLICT');
      expect((await adminCall('reactivate')).json().status).toBe('ACTIVE');
      const audit = await ctx.database.db.selectFrom('admin_audit_log').select('action').where('target_id', '=', receiver.id).orderBy('created_at').execute();
      expect(audit.map((row) => row.action)).toEqual(['receiver.kyc_approve', 'receiver.suspend', 'receiver.block', 'receiver.reactivate']);
    });

    it('merchants cannot call operator routes (403)', async () => {
      const receiver = await createReceiver();
      const response = await ctx.app.inject({ method: 'POST', url: `/api/v1/admin/receivers/${receiver.id}/kyc/approve`, headers: merchant.headers });
      expectErrorBody(response, 403, 'FORBIDDEN');
    });
  });
});
