/**
 * The data the every-route crawl (test/browser/every-route.test.ts) visits, made through the
 * documented API of a `startDashboardServer` service as a merchant and operators would (sandbox
 * drivers for what a customer, a chain or a PSP does): receivers in each KYC state, orders in each
 * state the sandbox reaches (MED claims open, defended, accepted and rejected included), webhook
 * endpoints healthy and failing with their deliveries, a pending team invitation, people and
 * operators whose sessions still have to enrol TOTP, and back-office approvals pending and decided.
 *
 * The server must run with `PAYIN_EXPIRY_SECONDS: '60'` (EXPIRED is reached by waiting, the
 * service's shortest expiry), `ADMIN_TOKEN`, `LOG_LEVEL: 'info'` (invitation links) and
 * `NODE_ENV: 'test', TEST_HOLD_ORDER_STEPS: 'true'` (held orders, below).
 * A PAYIN awaiting payment would expire too while the crawl runs, so that state is made when a
 * page asks for it (`orders[…]()`).
 *
 * Orders stopped in the middle of their processing (a PAYIN whose PIX arrived and is not converted
 * yet, a PAYOUT whose deposit arrived and whose PIX is not sent yet): the worker takes each in
 * milliseconds, so once everything else is seeded (the expiring PAYIN EXPIRED too) the service is
 * restarted without its worker (`ROLES=api`, on the same data) and the two are paid: the API applies
 * a payment and a deposit itself and the next step is the worker's, which never comes. The crawl
 * then runs against that api-only process, its `baseUrl` changed.
 * The states further on (SWAPPING, TRANSFERRING, REFUNDING, PIX_SENDING, PIX_SENT_UNCONFIRMED) need
 * the worker to take the step before and not the next: those orders are made with an externalId
 * asking the service's test-only hold to leave them there (src/modules/orders/lifecycle/test-hold.ts;
 * the worker drops their next step, the sandbox bank leaves their PIX unsettled), everything before
 * it the real path, in parallel with the others. `orderStatuses()` is the set of statuses seeded:
 * the crawl checks it is every status an order can be stored in.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { TEST_HOLD_PREFIX } from '../../src/modules/orders/lifecycle/test-hold.ts';
import { type ApiSession, type DashboardServer, invitePerson, signedInOwner, signInByApi, demoKeyApi } from './dashboard-server.ts';
import { randomCpf } from './documents.ts';
import { BATCH_STATES, seedBatches } from './crawl-seed-batches.ts';
import { operatorFetch, operatorInvitationToken as operatorInvitationTokenOf, operatorSignInByApi, type OperatorApiSession, signedInOperator, type SignedInOperatorSession, webhookSink } from './ops-browser.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const WALLET = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';

/**
 * The states seeded of each kind of record, by name: a page with an `$id` of that kind is visited
 * once per state. Names are fixed here (the crawl's tests are named before anything is seeded).
 */
export const STATES = {
  receivers: ['KYC pending', 'KYC submitted', 'KYC under review', 'KYC approved', 'KYC rejected', 'suspended'],
  orders: [
    'PAYIN awaiting payment',
    'PAYIN expired',
    'PAYIN completed',
    'PAYIN refunded',
    'PAYIN failed (refund failed)',
    'PAYIN claim open',
    'PAYIN claim defended',
    'PAYIN claim accepted (charged back)',
    'PAYIN claim rejected',
    'PAYOUT awaiting deposit',
    'PAYOUT completed',
    'PAYOUT completed, excess deposit held',
    'PAYOUT failed (PIX refused)',
    'PAYIN mid-processing (PIX received)',
    'PAYIN mid-processing (swapping)',
    'PAYIN mid-processing (transferring)',
    'PAYIN refunding',
    'PAYOUT mid-processing (deposit received)',
    'PAYOUT mid-processing (PIX sending)',
    'PAYOUT PIX sent, unconfirmed',
  ],
  disputes: ['open', 'defended', 'accepted (charged back)', 'rejected'],
  endpoints: ['healthy', 'failing'],
  deliveries: ['delivered', 'failing'],
  approvals: ['pending', 'approved', 'rejected'],
  merchants: ['demo merchant'],
  batches: BATCH_STATES,
} as const;
export type StateKind = keyof typeof STATES;

/** A record's id in each state: a function, since some states are made or waited for when asked. */
export type StateIds<K extends StateKind> = Record<(typeof STATES)[K][number], () => Promise<string>>;

export interface CrawlSeed {
  owner: ApiSession;
  operator: SignedInOperatorSession;
  /** A merchant ADMIN who accepted an invitation and has not enrolled TOTP: the session /sign-in/totp is for. */
  merchantEnrolment: ApiSession;
  /** The demo operator before enrolment: the session /ops/sign-in/totp is for. */
  operatorEnrolment: OperatorApiSession;
  /** The pending team invitation's emailed token (after `#` in /app/accept-invitation). */
  invitationToken: string;
  /** A password-reset link's token (after `#` in /app/reset-password), of the ADMIN above. */
  resetToken: string;
  /** A pending operator invitation's token (after `#` in /app/ops/accept-invitation). */
  operatorInvitationToken: string;
  ids: { [K in StateKind]: StateIds<K> };
  /** The status each seeded order is in now, as the API answers it. */
  orderStatuses(): Promise<Set<string>>;
  close(): void;
}

const FINAL = new Set(['COMPLETED', 'FAILED', 'EXPIRED', 'REFUNDED']);
const now = (id: string) => async () => id;

export async function seedEveryState(server: DashboardServer): Promise<CrawlSeed> {
  const merchantApi = demoKeyApi(() => server);
  /** Polls an order until `done` holds for it (the service's worker drives it meanwhile). */
  const until = async (id: string, done: (order: Json) => boolean, what: string, timeoutMs = 60_000): Promise<Json> => {
    let order: Json = {};
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 200))) {
      order = await merchantApi('GET', `/orders/${id}`);
      if (done(order)) return order;
    }
    throw new Error(`seed: order ${id} did not become ${what} (it is ${order.status})`);
  };
  const final = async (id: string, status: string) => {
    const order = await until(id, (o) => FINAL.has(o.status), status);
    expect(order.status, `seeded order ${id}`).toBe(status);
    return id;
  };
  const newReceiver = (name: string) =>
    merchantApi('POST', '/receivers', { type: 'PF', document: randomCpf(), name, email: 'rota@example.com', walletAddress: WALLET, limits: { nightTransactionsEnabled: true, dailyLimitBrl: null, dailyTransactionLimit: null } });
  const submitKyc = (id: string) =>
    merchantApi('POST', `/receivers/${id}/kyc`, { birthDate: '1990-04-12', motherName: 'Maria Teste', documents: [{ type: 'ID_FRONT', reference: `s3://kyc/${id}/id-front.jpg` }, { type: 'SELFIE', reference: `s3://kyc/${id}/selfie.jpg` }] });

  // First, as it takes the longest: a PAYIN left to expire (PAYIN_EXPIRY_SECONDS=60).
  const active = await newReceiver('Rita Rotas Ativa');
  await merchantApi('POST', `/sandbox/receivers/${active.id}/kyc`, { decision: 'APPROVE' });
  const payin = async (amountBrl: number, externalId?: string) => String((await merchantApi('POST', '/payin', { receiverId: active.id, amountBrl, ...(externalId ? { externalId } : {}) })).id);
  const payout = async (amountCrypto: number, externalId?: string) => String((await merchantApi('POST', '/payout', { receiverId: active.id, amountCrypto, sourceToken: 'USDC', ...(externalId ? { externalId } : {}) })).id);
  const expiring = await payin(10);

  const okSink = await webhookSink();
  const failingSink = await webhookSink();
  failingSink.server.removeAllListeners('request');
  failingSink.server.on('request', (_request, response) => response.writeHead(500).end('no'));
  const healthy = await merchantApi('POST', '/webhook/endpoints', { url: okSink.url, description: 'crawl: healthy' });
  const failing = await merchantApi('POST', '/webhook/endpoints', { url: failingSink.url, description: 'crawl: failing' });

  const [owner, operator, second] = await Promise.all([signedInOwner(server), signedInOperator(server, 'ADMIN'), signedInOperator(server, 'ADMIN')]);

  // Receivers in each KYC state; SUSPENDED and UNDER_REVIEW take an operator.
  const pending = await newReceiver('Paulo Pendente');
  const submitted = await newReceiver('Sara Enviada');
  await submitKyc(String(submitted.id));
  const review = await newReceiver('Rui Em Análise');
  await submitKyc(String(review.id));
  const rejected = await newReceiver('Rosa Recusada');
  await merchantApi('POST', `/sandbox/receivers/${rejected.id}/kyc`, { decision: 'REJECT', reason: 'Documento ilegível' });
  const suspended = await newReceiver('Sueli Suspensa');
  await merchantApi('POST', `/sandbox/receivers/${suspended.id}/kyc`, { decision: 'APPROVE' });
  const ops = async (method: string, path: string, body?: unknown, as: OperatorApiSession = operator) => {
    const response = await operatorFetch(server.baseUrl, as, method, path, body);
    const text = await response.text();
    if (response.status >= 300) throw new Error(`seed: ${method} /admin${path}: ${response.status} ${text}`);
    return JSON.parse(text) as Json;
  };
  await ops('POST', `/receivers/${review.id}/kyc/start-review`, {});
  await ops('POST', `/receivers/${suspended.id}/suspend`, {});

  // Orders: each driven to its state through the sandbox, in parallel (the worker drives them all).
  const paid = async (amountBrl: number) => {
    const id = await payin(amountBrl);
    await merchantApi('POST', `/sandbox/orders/${id}/pix-payment`, {});
    return final(id, 'COMPLETED');
  };
  const armed = async (amountBrl: number, steps: string[], status: string) => {
    const id = await payin(amountBrl);
    for (const step of steps) await merchantApi('POST', `/sandbox/orders/${id}/failure-injections`, { step, reason: 'crawl: simulated failure' });
    await merchantApi('POST', `/sandbox/orders/${id}/pix-payment`, {});
    return final(id, status);
  };
  const deposited = async (amountCrypto: number, deposit: number, status: string, fail = false) => {
    const id = await payout(amountCrypto);
    if (fail) await merchantApi('POST', `/sandbox/orders/${id}/failure-injections`, { step: 'PIX_PAYOUT', reason: 'crawl: key not found' });
    await merchantApi('POST', `/sandbox/orders/${id}/deposit`, { amountCrypto: deposit });
    return final(id, status);
  };
  // Held where the worker would leave them within milliseconds (the service's TEST_HOLD_ORDER_STEPS, see the top).
  const held = async (status: string, make: (externalId: string) => Promise<string>, move: (id: string) => Promise<unknown>) => {
    const id = await make(`${TEST_HOLD_PREFIX}${status}-${randomUUID()}`);
    await move(id);
    await until(id, (o) => o.status === status, status);
    return id;
  };
  const pixPaid = (id: string) => merchantApi('POST', `/sandbox/orders/${id}/pix-payment`, {});
  const depositMade = (id: string) => merchantApi('POST', `/sandbox/orders/${id}/deposit`, {});
  const claimed = async (amountBrl: number) => {
    const id = await paid(amountBrl);
    return { id, dispute: await merchantApi('POST', `/sandbox/orders/${id}/med-claim`, { reason: 'crawl: payer says it was a scam' }) };
  };
  const [swapping, transferring, refunding, pixSending, pixSent] = await Promise.all([
    held('SWAPPING', (externalId) => payin(15, externalId), pixPaid),
    held('TRANSFERRING', (externalId) => payin(16, externalId), pixPaid),
    held('REFUNDING', (externalId) => payin(17, externalId), async (id) => {
      await merchantApi('POST', `/sandbox/orders/${id}/failure-injections`, { step: 'CHAIN_TRANSFER', reason: 'crawl: simulated failure' });
      await pixPaid(id);
    }),
    held('PIX_SENDING', (externalId) => payout(7, externalId), depositMade),
    held('PIX_SENT_UNCONFIRMED', (externalId) => payout(8, externalId), depositMade),
  ]);
  const [completed, refunded, failed, payoutDone, payoutExcess, payoutFailed, open, defended, accepted, rejectedClaim, awaitingDeposit] = await Promise.all([
    paid(11),
    armed(12, ['CHAIN_TRANSFER'], 'REFUNDED'),
    armed(13, ['CHAIN_TRANSFER', 'PIX_REFUND'], 'FAILED'),
    deposited(2, 2, 'COMPLETED'),
    deposited(3, 5, 'COMPLETED'),
    deposited(4, 4, 'FAILED', true),
    claimed(21),
    claimed(22),
    claimed(23),
    claimed(24),
    payout(6),
  ]);
  await merchantApi('POST', `/disputes/${defended.dispute.id}/defense`, { justification: 'The payer is the receiver and the tokens reached their wallet', evidence: [{ description: 'Delivery receipt', url: 'https://evidence.example.com/receipt.pdf' }] });
  await merchantApi('POST', `/sandbox/disputes/${accepted.dispute.id}/decision`, { outcome: 'ACCEPTED' });
  await merchantApi('POST', `/sandbox/disputes/${rejectedClaim.dispute.id}/decision`, { outcome: 'REJECTED' });
  await merchantApi('POST', '/sandbox/settlements/run', {});
  // Payout batches in each state (crawl-seed-batches.ts), before the worker stops: the funded one's orders are paid.
  const batches = await seedBatches(server.baseUrl, merchantApi, owner.session, String(active.id));

  // People: a pending invitation, and an ADMIN who accepted one and has not enrolled TOTP.
  const pendingEmail = `convidado-${Date.now()}@example.com`;
  const invited = await fetch(`${server.baseUrl}/api/v1/users/invitations`, { method: 'POST', headers: { cookie: owner.session.cookie, 'x-csrf-token': owner.session.csrfToken, 'content-type': 'application/json' }, body: JSON.stringify({ email: pendingEmail, role: 'DEVELOPER' }) });
  if (invited.status !== 202) throw new Error(`seed: invitation: ${invited.status} ${await invited.text()}`);
  const invitationToken = await emailedToken(server, pendingEmail, '/app/accept-invitation#');
  const admin = await invitePerson(server, owner.session, `admin-${Date.now()}@example.com`, 'ADMIN');
  const merchantEnrolment = await signInByApi(server.baseUrl, admin);
  const operatorEnrolment = await operatorSignInByApi(server.baseUrl, server.operator);
  const reset = await fetch(`${server.baseUrl}/api/v1/auth/password-resets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: admin.email }) });
  if (reset.status !== 202) throw new Error(`seed: password reset: ${reset.status} ${await reset.text()}`);
  const resetToken = await emailedToken(server, admin.email, '/app/reset-password#');

  // Approvals: one pending, one rejected by a second operator (the operators' creation left approved ones).
  const proposal = (email: string) => ops('POST', '/approvals', { action: 'OPERATOR_CREATE', targetId: email, params: { role: 'VIEWER' }, reason: 'The crawl needs a proposal' });
  const pendingApproval = await proposal(`proposta-${Date.now()}@example.com`);
  const rejectedApproval = await proposal(`recusada-${Date.now()}@example.com`);
  await ops('POST', `/approvals/${rejectedApproval.id}/reject`, { reason: 'Not needed after all' }, second);
  // One approved by the second operator: an operator invited and not yet accepted.
  const invitedOperator = `convidada-${Date.now()}@example.com`;
  const approvedApproval = await proposal(invitedOperator);
  await ops('POST', `/approvals/${approvedApproval.id}/approve`, {}, second);
  const operatorInvitationToken = await operatorInvitationTokenOf(server, invitedOperator);

  const deliveriesOf = async (endpoint: Json) => {
    for (let attempt = 0; attempt < 100; attempt++) {
      const found = (await merchantApi('GET', `/webhook/deliveries?endpointId=${endpoint.id}&limit=5`)).data as Json[];
      if (found.length > 0) return String(found[0]!.id);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`seed: no delivery to ${endpoint.url}`);
  };
  const [deliveredId, failingDeliveryId] = await Promise.all([deliveriesOf(healthy), deliveriesOf(failing)]);

  // Mid-processing: the worker stopped (see the top), then a PIX paid and a deposit made.
  const expired = (await until(expiring, (o) => o.status === 'EXPIRED', 'EXPIRED', 90_000)).id as string;
  await server.restart({ ROLES: 'api' });
  const pixReceived = await payin(14);
  await merchantApi('POST', `/sandbox/orders/${pixReceived}/pix-payment`, {});
  const depositReceived = await payout(5);
  await merchantApi('POST', `/sandbox/orders/${depositReceived}/deposit`, {});
  for (const [id, status] of [[pixReceived, 'PAYMENT_RECEIVED'], [depositReceived, 'DEPOSIT_RECEIVED']]) {
    expect((await merchantApi('GET', `/orders/${id}`)).status, `seeded mid-processing order ${id}`).toBe(status);
  }

  let awaitingPayment: { id: string; at: number } | undefined;
  const seeded: CrawlSeed = {
    owner: owner.session,
    operator,
    merchantEnrolment,
    operatorEnrolment,
    invitationToken,
    resetToken,
    operatorInvitationToken,
    ids: {
    receivers: {
      'KYC pending': now(String(pending.id)),
      'KYC submitted': now(String(submitted.id)),
      'KYC under review': now(String(review.id)),
      'KYC approved': now(String(active.id)),
      'KYC rejected': now(String(rejected.id)),
      suspended: now(String(suspended.id)),
    },
    orders: {
      // Made when asked: one older than half the expiry is replaced, so the page sees it still awaiting.
      'PAYIN awaiting payment': async () => {
        if (!awaitingPayment || Date.now() - awaitingPayment.at > 30_000) awaitingPayment = { id: await payin(30), at: Date.now() };
        return awaitingPayment.id;
      },
      'PAYIN expired': now(expired),
      'PAYIN completed': now(completed),
      'PAYIN refunded': now(refunded),
      'PAYIN failed (refund failed)': now(failed),
      'PAYIN claim open': now(open.id),
      'PAYIN claim defended': now(defended.id),
      'PAYIN claim accepted (charged back)': now(accepted.id),
      'PAYIN claim rejected': now(rejectedClaim.id),
      'PAYOUT awaiting deposit': now(awaitingDeposit),
      'PAYOUT completed': now(payoutDone),
      'PAYOUT completed, excess deposit held': now(payoutExcess),
      'PAYOUT failed (PIX refused)': now(payoutFailed),
      'PAYIN mid-processing (PIX received)': now(pixReceived),
      'PAYIN mid-processing (swapping)': now(swapping),
      'PAYIN mid-processing (transferring)': now(transferring),
      'PAYIN refunding': now(refunding),
      'PAYOUT mid-processing (deposit received)': now(depositReceived),
      'PAYOUT mid-processing (PIX sending)': now(pixSending),
      'PAYOUT PIX sent, unconfirmed': now(pixSent),
    },
    disputes: {
      open: now(String(open.dispute.id)),
      defended: now(String(defended.dispute.id)),
      'accepted (charged back)': now(String(accepted.dispute.id)),
      rejected: now(String(rejectedClaim.dispute.id)),
    },
    endpoints: { healthy: now(String(healthy.id)), failing: now(String(failing.id)) },
    deliveries: { delivered: now(deliveredId), failing: now(failingDeliveryId) },
    approvals: { pending: now(String(pendingApproval.id)), rejected: now(String(rejectedApproval.id)), approved: now(String(approvedApproval.id)) },
    merchants: { 'demo merchant': now(server.merchantId) },
    batches: Object.fromEntries(BATCH_STATES.map((state) => [state, now(batches[state])])) as StateIds<'batches'>,
    },
    async orderStatuses() {
      const ids = await Promise.all(Object.values(seeded.ids.orders).map((id: () => Promise<string>) => id()));
      return new Set(await Promise.all(ids.map(async (id) => String((await merchantApi('GET', `/orders/${id}`)).status))));
    },
    close() {
      okSink.server.close();
      failingSink.server.close();
    },
  };
  return seeded;
}

/** The token of the last link of `kind` (`…#`) emailed to `email` (the log email port writes it to the output at info). */
async function emailedToken(server: DashboardServer, email: string, kind: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const line = server.output().split('\n').filter((l) => l.includes(email) && l.includes(kind)).at(-1);
    const token = line?.slice(line.indexOf(kind) + kind.length).match(/^[A-Za-z0-9_-]{43}/)?.[0];
    if (token) return token;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`seed: no ${kind} link to ${email} in the service's output`);
}
