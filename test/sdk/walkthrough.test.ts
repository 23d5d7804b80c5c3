/**
 * The README's sandbox walkthrough through the SDK, against the service started as a process
 * and reached over a socket: a PAYIN and a PAYOUT to COMPLETED, and the signed webhook
 * deliveries they cause, verified with `verifyWebhook`.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createExchangeClient,
  type ExchangeClient,
  ExchangeWebhookError,
  type Order,
  verifyWebhook,
  WEBHOOK_EVENT_NAMES,
  type WebhookEvent,
} from '../../sdk/src/index.ts';
import { randomCpf } from '../helpers/documents.ts';
import { eventually, type SdkService, startSdkService } from './service.ts';
import { START_WAIT_MS } from '../helpers/processes.ts';

interface Delivery {
  body: string;
  headers: IncomingHttpHeaders;
}

describe('SDK: the README walkthrough on a started service', () => {
  let svc: SdkService;
  let client: ExchangeClient;
  let hooks: Server;
  let hooksUrl: string;
  let secret: string;
  const deliveries: Delivery[] = [];
  let payin: Order;
  let payout: Order;

  beforeAll(async () => {
    svc = await startSdkService();
    const { apiKey, apiSecret } = await svc.createMerchant('Walkthrough Merchant');
    // The README's credentials, as headers.
    client = createExchangeClient({ baseUrl: svc.baseUrl, auth: { apiKey, apiSecret } });
    hooks = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        deliveries.push({ body, headers: request.headers });
        response.writeHead(204).end();
      });
    });
    hooks.listen(0, '127.0.0.1');
    await once(hooks, 'listening');
    hooksUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hooks`;
  }, START_WAIT_MS + 60_000);

  afterAll(async () => {
    hooks?.close();
    await svc?.stop();
  });

  it('registers a webhook endpoint and gets its signing secret once', async () => {
    const endpoint = await client.webhooks.endpoints.create({ url: hooksUrl, description: 'SDK test receiver' });
    expect(endpoint.secret).toMatch(/^whsec_/);
    secret = endpoint.secret;
    const listed = await client.webhooks.endpoints.list();
    expect(listed.data.map((e) => e.id)).toEqual([endpoint.id]);
    expect(listed.data[0]).not.toHaveProperty('secret');
  });

  it('runs a PAYIN to COMPLETED: receiver, KYC, payin, the PIX paid in the sandbox', async () => {
    const receiver = await client.receivers.create({
      type: 'PF',
      document: randomCpf(),
      name: 'Maria Silva',
      email: 'maria@example.com',
      walletAddress: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T',
      // The real clock may be in the night window (20:00–06:00 São Paulo).
      limits: { nightTransactionsEnabled: true },
    });
    expect(receiver.kycStatus).toBe('PENDING');
    expect((await client.sandbox.decideKyc(receiver.id, { decision: 'APPROVE' })).kycStatus).toBe('APPROVED');

    payin = await client.payins.create({ receiverId: receiver.id, amountBrl: 100 });
    expect(payin).toMatchObject({ type: 'PAYIN', status: 'AWAITING_PAYMENT', amountBrl: 100 });
    expect(payin.pixPaymentCode).toMatch(/^000201/);

    await client.sandbox.payPixCharge(payin.id);
    const completed = await eventually(async () => {
      const order = await client.orders.get(payin.id);
      return order.status === 'COMPLETED' ? order : undefined;
    });
    expect(completed.transactions?.find((tx) => tx.type === 'CHAIN_TRANSFER')?.txHash).toBeTruthy();
  }, 60_000);

  it('runs a PAYOUT to COMPLETED: payout, the deposit made in the sandbox, the PIX sent', async () => {
    const receiver = await client.receivers.create({
      type: 'PF',
      document: randomCpf(),
      name: 'João Souza',
      email: 'joao@example.com',
      limits: { nightTransactionsEnabled: true },
    });
    await client.sandbox.decideKyc(receiver.id, { decision: 'APPROVE' });
    // Payouts pay only the receiver's keys: this e-mail key is the receiver's in the sandbox PSP's DICT.
    await client.sandbox.registerPixKey({ key: 'joao@example.com', keyType: 'EMAIL', document: receiver.document });
    payout = await client.payouts.create({
      receiverId: receiver.id,
      amountCrypto: 10,
      sourceToken: 'USDC',
      pixKey: 'joao@example.com',
      pixKeyType: 'EMAIL',
    });
    expect(payout).toMatchObject({ type: 'PAYOUT', status: 'AWAITING_DEPOSIT' });
    expect(payout.depositAddress).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);

    await client.sandbox.makeDeposit(payout.id);
    const completed = await eventually(async () => {
      const order = await client.orders.get(payout.id);
      return order.status === 'COMPLETED' ? order : undefined;
    });
    expect(completed.amountBrl).toBeGreaterThan(0);
  }, 60_000);

  it('verifies the real signed deliveries of both orders and types them', async () => {
    const verified = () => deliveries.map((d) => verifyWebhook(d.body, d.headers, secret));
    const completedOf = (orderId: string) => verified().find((e) => e.event === 'order.completed' && e.orderId === orderId);
    await eventually(async () => (completedOf(payin.id) && completedOf(payout.id) ? true : undefined));

    const events: WebhookEvent[] = verified();
    for (const [index, event] of events.entries()) expect(event.deliveryId).toBe(deliveries[index]!.headers['webhook-id']);

    const payinDone = completedOf(payin.id)!;
    if (payinDone.event !== 'order.completed' || payinDone.type !== 'PAYIN') throw new Error(`unexpected ${JSON.stringify(payinDone)}`);
    // Narrowed by the event name and the order type: the PAYIN shape has the chain transfer.
    expect(payinDone.txHash).toBeTruthy();
    expect(payinDone.targetToken).toBe('USDC');

    const payoutDone = completedOf(payout.id)!;
    if (payoutDone.event !== 'order.completed' || payoutDone.type !== 'PAYOUT') throw new Error(`unexpected ${JSON.stringify(payoutDone)}`);
    expect(payoutDone.pixKey).toBe('joao@example.com');
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['order.payment_received', 'order.deposit_received', 'order.completed']));
  }, 30_000);

  it('refuses a tampered body, a wrong secret and a missing header', async () => {
    const { body, headers } = deliveries[0]!;
    expect(body).toContain('"event":"');
    expect(() => verifyWebhook(body.replace('"event":"', '"event":"x'), headers, secret)).toThrow(ExchangeWebhookError);
    expect(() => verifyWebhook(body, headers, `whsec_${Buffer.alloc(32, 7).toString('base64')}`)).toThrow(ExchangeWebhookError);
    expect(() => verifyWebhook(body, { ...headers, 'webhook-signature': undefined }, secret)).toThrow(/webhook-signature/);
    // Headers as a fetch Headers object (a Request handler's) verify too.
    expect(verifyWebhook(Buffer.from(body), new Headers(headers as Record<string, string>), secret).deliveryId).toBe(headers['webhook-id']);
  });

  it("sends a test ping on request, verifiable like any delivery", async () => {
    const [endpoint] = (await client.webhooks.endpoints.list()).data;
    await client.webhooks.endpoints.test(endpoint!.id);
    const ping = await eventually(async () => deliveries.map((d) => verifyWebhook(d.body, d.headers, secret)).find((e) => e.event === 'webhook.test'));
    if (ping.event !== 'webhook.test') throw new Error('narrowing');
    expect(ping.endpointId).toBe(endpoint!.id);
  });

  it('fails a PAYOUT on purpose: its PIX out armed to fail before the deposit, order.failed delivered', async () => {
    const receiver = await client.receivers.create({ type: 'PF', document: randomCpf(), name: 'Ana Lima', email: 'ana@example.com', limits: { nightTransactionsEnabled: true } });
    await client.sandbox.decideKyc(receiver.id, { decision: 'APPROVE' });
    const order = await client.payouts.create({ receiverId: receiver.id, amountCrypto: 5, sourceToken: 'USDC', pixKey: receiver.document, pixKeyType: 'CPF' });
    expect(await client.sandbox.armOrderFailure(order.id, { step: 'PIX_PAYOUT' })).toMatchObject({ orderId: order.id, step: 'PIX_PAYOUT' });
    await client.sandbox.makeDeposit(order.id);
    const failed = await eventually(async () => deliveries.map((d) => verifyWebhook(d.body, d.headers, secret)).find((e) => e.event === 'order.failed' && e.orderId === order.id));
    expect(failed.event).toBe('order.failed');
    expect((await client.orders.get(order.id)).status).toBe('FAILED');
  }, 60_000);

  it('follows a MED fraud claim on the completed PAYIN: opened in the sandbox, listed, defended, order.disputed delivered', async () => {
    const opened = await client.sandbox.openMedClaim(payin.id, { reason: 'Golpe' });
    expect(opened).toMatchObject({ orderId: payin.id, status: 'OPEN', orderHeld: false });
    const listed = [];
    for await (const dispute of client.disputes.list({ orderId: payin.id })) listed.push(dispute.id);
    expect(listed).toEqual([opened.id]);
    const defended = await client.disputes.defend(opened.id, { justification: 'The receiver paid from its own account' });
    expect(defended.status).toBe('DEFENDED');
    const delivered = await eventually(async () => deliveries.map((d) => verifyWebhook(d.body, d.headers, secret)).find((e) => e.event === 'order.disputed' && e.orderId === payin.id));
    expect(delivered).toMatchObject({ event: 'order.disputed', disputeId: opened.id, status: 'OPEN' });
  }, 60_000);

  it("knows every event of the service's catalog (GET /webhook/events)", async () => {
    const catalog = await client.webhooks.events();
    expect(catalog.data.map((entry) => entry.name).sort()).toEqual([...WEBHOOK_EVENT_NAMES].sort());
  });
});
