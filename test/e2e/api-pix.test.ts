/**
 * Issue 16's must-show, end to end: PIX_PROVIDER=api-pix against the PSP simulator (its own
 * process) through a proxy that validates every request and answer against Banco Central's
 * openapi.yaml; PIX out goes to the simulator's Efí API directly (it is not part of API Pix).
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parsePix } from 'pix-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestContext, type TestMerchant, createTestContext } from '../helpers/app.ts';
import { randomCnpj, randomCpf } from '../helpers/documents.ts';
import { startOpenApiProxy } from '../helpers/openapi-proxy.ts';
import { freePort, runTs, waitFor } from '../helpers/processes.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const SPEC = path.resolve(import.meta.dirname, '../../vendor/bacen-pix-api/openapi.yaml');
const WALLET = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';
const TOKEN = 'e2e-webhook-token-0123456789abcdefghij';
const HEADER = { 'x-webhook-secret': 'e2e-webhook-header-secret-0123456789abcdef' };
/** An endToEndId no PSP issued: the shape of one (32 letters and digits). */
const inventedE2e = () => `E${randomUUID().replaceAll('-', '').slice(0, 31)}`;

describe('PIX_PROVIDER=api-pix against the PSP simulator behind an OpenAPI-validating proxy', () => {
  let simulator: ReturnType<typeof runTs>;
  let ready: Json;
  let proxy: Awaited<ReturnType<typeof startOpenApiProxy>>;
  let ctx: TestContext;
  let merchant: TestMerchant;
  let receiver: Json;

  const control = async (route: string, body: unknown) => {
    const response = await fetch(`${ready.controlUrl}${route}`, { method: 'POST', body: JSON.stringify(body) });
    expect(response.status, route).toBe(200);
    return (await response.json()) as Json;
  };
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    ctx.app.inject({ method, url: `/api/v1${url}`, headers: merchant.headers, ...(payload ? { payload } : {}) });
  const order = async (id: string) => (await call('GET', `/orders/${id}`)).json() as Json;
  const until = async (id: string, status: string, drive = false) => {
    for (let i = 0; i < 100; i++) {
      await control('/control/idle', {});
      if (drive) await ctx.app.services.orderSteps.runDuePass();
      const current = await order(id);
      if (current.status === status) return current;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`order ${id} is ${(await order(id)).status}, not ${status}`);
  };
  const payin = async (amountBrl: number) => {
    const response = await call('POST', '/payin', { receiverId: receiver.id, amountBrl });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as Json;
  };
  const txidOf = async (id: string) => (await ctx.database.db.selectFrom('orders').select('pix_txid').where('id', '=', id).executeTakeFirstOrThrow()).pix_txid!;
  /** What anyone who learnt the callback's URL and header could post (the PSP's own shape). */
  const notify = (pix: Json[], headers: Record<string, string> = HEADER, token = TOKEN) =>
    ctx.app.inject({ method: 'POST', url: `/api/v1/pix-provider/webhook/${token}/pix`, headers, payload: { pix } });
  const pspState = async () => (await (await fetch(`${ready.controlUrl}/control/state`)).json()) as Json;
  const rejectionsOf = (reference: string) => ctx.database.db.selectFrom('pix_notification_rejections').selectAll().where('reference', '=', reference).execute();
  const events = async (id: string) =>
    (await ctx.database.db.selectFrom('events').select(['event_type', 'payload']).orderBy('created_at').orderBy('id').execute()).filter((e) => e.payload.orderId === id).map((e) => e.event_type);

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'psp-sim-'));
    simulator = runTs('tools/psp-simulator/main.ts', [], { PSP_SIM_DIR: dir, PSP_SIM_PORT: '0', PSP_SIM_CONTROL_PORT: '0', PSP_SIM_SETTLE_DELAY_MS: '30', PSP_SIM_WEBHOOK_HEADERS: JSON.stringify(HEADER) });
    const [line] = (await once(createInterface({ input: simulator.stdout! }), 'line')) as [string];
    ready = JSON.parse(line);
    const pem = (file: string) => readFileSync(file, 'utf8');
    const c = ready.certificates;
    const pki = { caPem: pem(c.caPem), serverCertPem: pem(c.serverCertPem), serverKeyPem: pem(c.serverKeyPem), clientCertPem: pem(c.clientCertPem), clientKeyPem: pem(c.clientKeyPem) };
    proxy = await startOpenApiProxy({ specPath: SPEC, upstream: ready.apiUrl, basePath: '/v2', pki, unchecked: ['/oauth/token'] });
    const port = await freePort();
    ctx = await createTestContext({
      PIX_PROVIDER: 'api-pix',
      PIX_API_BASE_URL: `${proxy.url}/v2`,
      PIX_OAUTH_TOKEN_URL: `${proxy.url}/oauth/token`,
      PIX_OUT_BASE_URL: ready.apiUrl,
      PIX_CLIENT_ID: ready.clientId,
      PIX_CLIENT_SECRET: ready.clientSecret,
      PIX_CLIENT_CERT: c.clientCertPem,
      PIX_CLIENT_KEY: c.clientKeyPem,
      PIX_CA_CERT: c.caPem,
      PIX_API_TIMEOUT_MS: '1000',
      PIX_WEBHOOK_PUBLIC_URL: `http://127.0.0.1:${port}`,
      PIX_WEBHOOK_TOKEN: TOKEN,
      PIX_WEBHOOK_HEADER_SECRET: HEADER['x-webhook-secret'],
      RECONCILIATION_GRACE_SECONDS: '0',
    });
    await ctx.app.listen({ port, host: '127.0.0.1' });
    merchant = await ctx.createMerchant('Loja API Pix');
    const created = await call('POST', '/receivers', { type: 'PJ', document: randomCnpj(), name: 'Padaria Souza Ltda', email: 'joana@example.com', walletAddress: WALLET });
    expect(created.statusCode, created.body).toBe(201);
    receiver = created.json();
    await call('POST', `/sandbox/receivers/${receiver.id}/kyc`, { decision: 'APPROVE' });
    // The worker's first reconciliation pass registers our callback (PUT /webhook/{chave}).
    await ctx.app.services.reconciliation.runPass();
  }, 60_000);

  afterAll(async () => {
    await ctx?.close();
    await proxy?.close();
    simulator?.kill('SIGTERM');
  });

  it('a PAYIN goes from its charge to COMPLETED, driven by the webhook; its code is the PSP’s dynamic BR Code', async () => {
    const created = await payin(20);
    const parsed = parsePix(created.pixPaymentCode) as Json;
    expect(parsed.type).toBe('DYNAMIC');
    expect(parsed.url).toMatch(/\/qr\/v2\//);
    // The same txid rule as the sandbox PSP: the charge is PUT under the order's whole paymentReference.
    expect(created.paymentReference).toHaveLength(32);
    expect(proxy.requests.some((r) => r.method === 'PUT' && r.path === `/cob/${created.paymentReference}`)).toBe(true);
    await control('/control/pay', { pixCopiaECola: created.pixPaymentCode });
    await until(created.id, 'PAYMENT_RECEIVED');
    await until(created.id, 'COMPLETED', true);
  });

  it('a charge names its payer (devedor) from the receiver: cnpj or cpf, with nome, valid against openapi.yaml', async () => {
    const company = await payin(19);
    const created = await call('POST', '/receivers', {
      type: 'PF',
      document: randomCpf(),
      name: 'Joana Souza',
      email: 'joana@example.com',
      walletAddress: WALLET,
      limits: { nightTransactionsEnabled: true }, // the suite runs on the real clock, maybe at night
    });
    const person = created.json() as Json;
    await call('POST', `/sandbox/receivers/${person.id}/kyc`, { decision: 'APPROVE' });
    const personal = await call('POST', '/payin', { receiverId: person.id, amountBrl: 18 });
    expect(personal.statusCode, personal.body).toBe(201);
    const sentFor = async (id: string) => {
      const path = `/cob/${await txidOf(id)}`;
      return proxy.requests.find((r) => r.method === 'PUT' && r.path === path)?.body;
    };
    expect((await sentFor(company.id))?.devedor).toEqual({ cnpj: receiver.document, nome: 'Padaria Souza Ltda' });
    expect((await sentFor(personal.json().id))?.devedor).toEqual({ cpf: person.document, nome: 'Joana Souza' });
    expect(proxy.violations).toEqual([]);
  });

  it('keeps the payer the PSP reports (Efí gnExtras.pagador, valid against openapi.yaml); under FIRST_PARTY a third party’s PIX goes back (natureza ORIGINAL)', async () => {
    const setPayerPolicy = (payerPolicy: string) =>
      ctx.app.inject({ method: 'PUT', url: `/api/v1/admin/merchants/${merchant.merchantId}/policies`, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { payerPolicy } });
    expect((await setPayerPolicy('FIRST_PARTY')).statusCode).toBe(200);
    try {
      // By default the simulator's payer is the charge's devedor: the receiver.
      const own = await payin(28);
      await control('/control/pay', { txid: await txidOf(own.id) });
      await until(own.id, 'COMPLETED', true);
      const thirdParty = randomCpf();
      const other = await payin(29);
      await control('/control/pay', { txid: await txidOf(other.id), pagador: { nome: 'Carlos Terceiro', cpf: thirdParty } });
      const ended = await until(other.id, 'REFUNDED', true);
      expect(ended.failureReason).toMatch(/^PIX paid by a third party \(CPF \*\*\*\.\d{3}\.\d{3}-\*\*\)/);
      // The payer's document is sealed at rest (orders/sealed-columns.ts): compared opened.
      const payers = (await ctx.database.db.selectFrom('orders').select(['id', 'payer_document', 'pix_end_to_end_id']).where('id', 'in', [own.id, other.id]).execute()).map((row) => ({
        ...row,
        payer_document: ctx.app.services.personalData.openNullable('document', row.payer_document),
      }));
      expect(payers.find((p) => p.id === own.id)?.payer_document).toBe(receiver.document);
      const paidByOther = payers.find((p) => p.id === other.id)!;
      expect(paidByOther.payer_document).toBe(thirdParty);
      const refund = proxy.requests.find((r) => r.method === 'PUT' && r.path.startsWith(`/pix/${paidByOther.pix_end_to_end_id}/devolucao/`));
      expect(refund?.body).toMatchObject({ natureza: 'ORIGINAL', valor: '29.00' });
      expect(proxy.violations).toEqual([]);
    } finally {
      await setPayerPolicy('ANY');
    }
  });

  it('with the webhook lost, reconciliation (GET /pix) finds the payment', async () => {
    const created = await payin(21);
    await control('/control/faults', { webhook: ['lose'] });
    await control('/control/pay', { txid: await txidOf(created.id) });
    await control('/control/idle', {});
    expect((await order(created.id)).status).toBe('AWAITING_PAYMENT');
    expect((await ctx.app.services.reconciliation.runPass()).chargesApplied).toBe(1);
    await until(created.id, 'COMPLETED', true);
  });

  it('a duplicated and an out-of-order notification are applied once', async () => {
    const [a, b, c] = [await payin(22), await payin(23), await payin(24)];
    await control('/control/faults', { webhook: ['duplicate', 'reorder'] });
    await control('/control/pay', { txid: await txidOf(a.id) }); // sent twice
    await control('/control/pay', { txid: await txidOf(b.id) }); // held back...
    await control('/control/pay', { txid: await txidOf(c.id) }); // ...and sent after this one
    for (const o of [a, b, c]) {
      await until(o.id, 'PAYMENT_RECEIVED');
      expect(await events(o.id)).toEqual(['order.payment_received']);
    }
  });

  it('a PAYIN refund reaches REFUNDED, and a refund NAO_REALIZADO (devolucoes as one object) FAILED', async () => {
    const refunded = await payin(25);
    await control('/control/pay', { txid: await txidOf(refunded.id), valor: '5.00' });
    await until(refunded.id, 'REFUNDING');
    await until(refunded.id, 'REFUNDED', true);

    const refused = await payin(26);
    await control('/control/faults', { refunds: [{ status: 'NAO_REALIZADO', motivo: 'Conta do pagador encerrada' }], devolucoesAsObject: true });
    await control('/control/pay', { txid: await txidOf(refused.id), valor: '6.00' });
    const failed = await until(refused.id, 'FAILED', true);
    expect(failed.failureReason).not.toContain('encerrada'); // the PSP's words stay with the PSP
    await control('/control/faults', { devolucoesAsObject: false });
  });

  it('5xx and timeouts of the PSP are retried with backoff', async () => {
    await control('/control/faults', { http: [{ pathPrefix: '/v2/cob', status: 503 }, { pathPrefix: '/v2/cob', delayMs: 1500 }] });
    const created = await payin(27);
    expect(parsePix(created.pixPaymentCode)).toMatchObject({ type: 'DYNAMIC' });
  });

  it('a PAYOUT reaches COMPLETED through the PIX-out adapter (Efí API)', async () => {
    const response = await call('POST', '/payout', { receiverId: receiver.id, amountCrypto: 1, sourceToken: 'USDC' });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json() as Json;
    await call('POST', `/sandbox/orders/${created.id}/deposit`, {});
    await until(created.id, 'PIX_SENT_UNCONFIRMED', true);
    await until(created.id, 'COMPLETED');
    expect(await events(created.id)).toContain('order.completed');
  });

  it('a PAYOUT the PSP refuses at once (Efí: above R$ 20.00) fails, in our words, and is not retried', async () => {
    // 5 USDC × 5.40 = 27.00 BRL, 26.86 net: above the simulator's (Efí sandbox's) immediate-refusal limit.
    const response = await call('POST', '/payout', { receiverId: receiver.id, amountCrypto: 5, sourceToken: 'USDC' });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json() as Json;
    await call('POST', `/sandbox/orders/${created.id}/deposit`, {});
    const failed = await until(created.id, 'FAILED', true);
    expect(failed.failureReason).toBe('PIX payout refused by the payment provider');
    expect(JSON.stringify(failed)).not.toMatch(/limite|sandbox|recusado/i); // the PSP's words stay with the PSP
    const emitted = await events(created.id);
    expect(emitted.filter((name) => name === 'order.failed')).toHaveLength(1);
    expect(emitted).not.toContain('order.pix_sending');
    const row = await ctx.database.db.selectFrom('orders').select(['next_step_at', 'step_attempts']).where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ next_step_at: null, step_attempts: 0 }); // one refusal, no backoff
  });

  // Issue 24: a PIX is money only when the PSP says so. The callback's URL and header are assumed
  // known to the attacker here; what protects the money is the PSP's own record.

  it('a forged notification (invented endToEndId, the right txid and valor) is answered 200, changes nothing and is recorded; the real payment completes the order', async () => {
    const created = await payin(29);
    const txid = await txidOf(created.id);
    const endToEndId = inventedE2e();
    const forged = await notify([{ endToEndId, txid, valor: '29.00', horario: new Date().toISOString() }]);
    expect(forged.statusCode).toBe(200);
    expect((await order(created.id)).status).toBe('AWAITING_PAYMENT');
    expect(await events(created.id)).not.toContain('order.payment_received');
    expect((await pspState()).charges[txid].status).toBe('ATIVA');
    const [rejection, ...more] = await rejectionsOf(endToEndId);
    expect(more).toEqual([]);
    expect(rejection).toMatchObject({ kind: 'charge_paid', request_id: forged.headers['x-request-id'], reason: `the PSP knows no PIX ${endToEndId} paying charge ${txid}` });
    expect(rejection!.notification).toMatchObject({ txid, endToEndId, amountBrl: '29.00' });

    await control('/control/pay', { txid }); // the PSP's own notification: confirmed, applied
    await until(created.id, 'COMPLETED', true);
  });

  it('a PIX of 5.00 notified as 30.00 (its real endToEndId, an inflated valor) is refused; the PSP’s 5.00 is what counts', async () => {
    const created = await payin(30);
    const txid = await txidOf(created.id);
    await control('/control/faults', { webhook: ['lose'] });
    const paid = await control('/control/pay', { txid, valor: '5.00' });
    await control('/control/idle', {});
    const forged = await notify([{ endToEndId: paid.endToEndId, txid, valor: '30.00', horario: new Date().toISOString() }]);
    expect(forged.statusCode).toBe(200);
    expect((await order(created.id)).status).toBe('AWAITING_PAYMENT');
    expect((await rejectionsOf(paid.endToEndId)).map((r) => r.reason)).toEqual([`the PSP has PIX ${paid.endToEndId} of 5.00 BRL, not 30.00`]);
    // The money is still found, at the PSP's amount: reconciliation reads the same record.
    expect((await ctx.app.services.reconciliation.runPass()).chargesApplied).toBe(1);
    const refunded = await until(created.id, 'REFUNDED', true);
    expect(refunded.failureReason).toBe('PIX of 5.00 BRL received for an order of 30.00 BRL');
    expect((await pspState()).pix[paid.endToEndId].devolucoes.map((r: Json) => r.valor)).toEqual(['5.00']);
  });

  it('a refund notified DEVOLVIDO that the PSP has NAO_REALIZADO changes nothing; reconciliation then applies the PSP’s outcome', async () => {
    const created = await payin(31);
    const txid = await txidOf(created.id);
    await control('/control/faults', { refunds: [{ status: 'NAO_REALIZADO', motivo: 'Conta do pagador encerrada' }] });
    const paid = await control('/control/pay', { txid, valor: '7.00' });
    await until(created.id, 'REFUNDING');
    await control('/control/faults', { webhook: ['lose'] }); // the PSP's NAO_REALIZADO never arrives
    await ctx.app.services.orderSteps.runDuePass(); // requests the refund
    const refundId = await waitFor(async () => {
      const refund = (await pspState()).pix[paid.endToEndId].devolucoes[0];
      return refund?.status === 'NAO_REALIZADO' ? (refund.id as string) : undefined;
    }, 10_000);
    await control('/control/idle', {});
    const forged = await notify([{ endToEndId: paid.endToEndId, devolucoes: [{ id: refundId, rtrId: inventedE2e(), valor: '7.00', status: 'DEVOLVIDO' }] }]);
    expect(forged.statusCode).toBe(200);
    expect((await order(created.id)).status).toBe('REFUNDING');
    expect((await rejectionsOf(refundId)).map((r) => [r.kind, r.reason])).toEqual([['refund_settled', `the PSP has refund ${refundId} NAO_REALIZADO, not DEVOLVIDO`]]);
    expect((await ctx.app.services.reconciliation.runPass()).refundsApplied).toBe(1);
    expect((await order(created.id)).status).toBe('FAILED');
  });

  it('a payout notified REALIZADO that the PSP refused changes nothing, nor does one the PSP never sent', async () => {
    // 3 USDC × 5.40 = 16.20 BRL: the simulator (Efí's sandbox rules) refuses it by webhook.
    const response = await call('POST', '/payout', { receiverId: receiver.id, amountCrypto: 3, sourceToken: 'USDC' });
    expect(response.statusCode, response.body).toBe(201);
    const created = response.json() as Json;
    const idEnvio = (created.id as string).replaceAll('-', '');
    await control('/control/faults', { webhook: ['lose'] }); // the PSP's NAO_REALIZADO never arrives
    await call('POST', `/sandbox/orders/${created.id}/deposit`, {});
    await until(created.id, 'PIX_SENT_UNCONFIRMED', true);
    await waitFor(async () => ((await pspState()).sent[idEnvio]?.status === 'NAO_REALIZADO' ? true : undefined), 10_000);
    await control('/control/idle', {});
    const horario = new Date().toISOString();
    const forged = await notify([{ endToEndId: inventedE2e(), valor: '16.12', horario, status: 'REALIZADO', gnExtras: { idEnvio } }]);
    expect((await order(created.id)).status).toBe('PIX_SENT_UNCONFIRMED');
    expect(forged.statusCode).toBe(200);
    expect(await events(created.id)).not.toContain('order.completed');
    expect((await rejectionsOf(idEnvio)).map((r) => r.reason)).toEqual([`the PSP has payout ${idEnvio} FAILED, not CONFIRMED`]);
    const unknown = await notify([{ endToEndId: inventedE2e(), valor: '16.12', horario, status: 'REALIZADO', gnExtras: { idEnvio: 'NeverSent0123' } }]);
    expect(unknown.statusCode).toBe(200); // not 503: the PSP would send a forgery forever
    expect((await rejectionsOf('NeverSent0123')).map((r) => r.reason)).toEqual(['the PSP knows no payout NeverSent0123']);
    expect((await ctx.app.services.reconciliation.runPass()).payoutsApplied).toBe(1);
    expect((await order(created.id)).status).toBe('FAILED');
  });

  it('a notification the PSP cannot confirm now (PSP unavailable) answers 503; the PSP’s retry is applied', async () => {
    const created = await payin(32);
    const txid = await txidOf(created.id);
    await control('/control/faults', { webhook: ['lose'] });
    const paid = await control('/control/pay', { txid });
    await control('/control/idle', {});
    const genuine = [{ endToEndId: paid.endToEndId, txid, valor: paid.valor, horario: new Date().toISOString() }];
    await control('/control/faults', { http: Array.from({ length: 4 }, () => ({ pathPrefix: '/v2/pix/', status: 503 })) });
    expect((await notify(genuine)).statusCode).toBe(503);
    expect((await order(created.id)).status).toBe('AWAITING_PAYMENT');
    expect(await rejectionsOf(paid.endToEndId)).toEqual([]);
    expect((await notify(genuine)).statusCode).toBe(200);
    expect((await order(created.id)).status).toBe('PAYMENT_RECEIVED');
  });

  it('a call without the header secret, with another one, or with another token is not found, and asks the PSP nothing', async () => {
    const created = await payin(33);
    const body = [{ endToEndId: inventedE2e(), txid: await txidOf(created.id), valor: '33.00', horario: new Date().toISOString() }];
    const asked = proxy.requests.length;
    for (const refused of [await notify(body, {}), await notify(body, { 'x-webhook-secret': `${HEADER['x-webhook-secret']}x` }), await notify(body, HEADER, `${TOKEN}x`), await notify(body, HEADER, TOKEN.slice(1))]) {
      expect(refused.statusCode).toBe(404);
    }
    expect(proxy.requests.length).toBe(asked);
    expect(await rejectionsOf(body[0]!.endToEndId)).toEqual([]);
    expect((await order(created.id)).status).toBe('AWAITING_PAYMENT');
  });

  it('a PAYOUT to an e-mail key is accepted only when the PSP’s key lookup names the receiver (issue 24, finding 5)', async () => {
    // The simulator's modelled lookup (GET /v2/gn/dict/chaves/{chave}), fed through its control API.
    const own = `caixa-${receiver.id}@example.com`;
    const foreign = `outra-${receiver.id}@example.com`;
    await control('/control/pix-keys', { chave: own, cnpj: receiver.document, nome: 'Padaria Souza Ltda' });
    await control('/control/pix-keys', { chave: foreign, cpf: randomCpf(), nome: 'Outra Pessoa' });
    const payoutTo = (pixKey: string) => call('POST', '/payout', { receiverId: receiver.id, amountCrypto: 1, sourceToken: 'USDC', pixKey, pixKeyType: 'EMAIL' });
    const accepted = await payoutTo(own);
    expect(accepted.statusCode, accepted.body).toBe(201);
    for (const key of [foreign, `ninguem-${receiver.id}@example.com`]) {
      const refused = await payoutTo(key);
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json().error).toBe('PIX_KEY_NOT_OWNED_BY_RECEIVER');
    }
  });

  it('a MED claim on a COMPLETED PAYIN: synced from the PSP, defended, accepted, returned as MED_FRAUDE and read back through the proxy', async () => {
    const created = await payin(17);
    await control('/control/pay', { pixCopiaECola: created.pixPaymentCode });
    await until(created.id, 'COMPLETED', true);
    const { pix_end_to_end_id: e2e } = await ctx.database.db.selectFrom('orders').select('pix_end_to_end_id').where('id', '=', created.id).executeTakeFirstOrThrow();
    const { idInfracao } = await control('/control/infractions', { endToEndId: e2e });
    const disputes = ctx.app.services.disputes;
    await disputes.syncWithPsp();
    const [opened] = (await call('GET', `/disputes?orderId=${created.id}`)).json().data as Json[];
    expect(opened).toMatchObject({ status: 'OPEN', orderHeld: false, amountBrl: 17 });

    const defended = await call('POST', `/disputes/${opened!.id}/defense`, { justification: 'The payer is the receiver; the tokens reached its own wallet' });
    expect(defended.statusCode, defended.body).toBe(200);
    expect((await pspState()).infractions[idInfracao].status).toBe('EM_DEFESA');

    await control('/control/infractions/decide', { idInfracao, status: 'ACEITA' });
    await disputes.syncWithPsp();
    expect((await call('GET', `/disputes/${opened!.id}`)).json()).toMatchObject({ status: 'ACCEPTED', outcome: 'CHARGED_BACK', returnStatus: 'PENDING' });
    await disputes.runDue();
    for (let i = 0; i < 100 && (await call('GET', `/disputes/${opened!.id}`)).json().returnStatus !== 'RETURNED'; i++) {
      await control('/control/idle', {});
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await call('GET', `/disputes/${opened!.id}`)).json().returnStatus).toBe('RETURNED');
    // The callback was confirmed with the standard GET /pix/{e2eid}/devolucao/{id}, natureza and all.
    const returnId = `M${String(opened!.id).replaceAll('-', '')}`;
    expect(proxy.requests.some((r) => r.method === 'GET' && r.path === `/pix/${e2e}/devolucao/${returnId}`)).toBe(true);
    expect((await pspState()).pix[e2e!].devolucoes).toEqual([expect.objectContaining({ id: returnId, natureza: 'MED_FRAUDE', status: 'DEVOLVIDO', valor: '17.00' })]);
    expect((await order(created.id)).status).toBe('COMPLETED');
    expect(proxy.violations).toEqual([]);
  });

  it('the proxy saw every call valid against openapi.yaml', () => {
    expect(proxy.violations).toEqual([]);
    expect(proxy.checked.requests).toBeGreaterThan(10);
    expect(proxy.violations).toEqual([]);
  });
});
