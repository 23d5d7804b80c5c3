/**
 * `npm run production-local -- --smoke`: the must-show of issue 40, on the deployment just started,
 * through its public doors only, as the README's walkthrough does it by hand:
 * - the merchant API over https through the TLS front (the merchant's key and secret, the admin
 *   token for the operator's KYC decision and the treasury);
 * - the PSP simulator's control API (the payer pays the PIX charge) and a customer's real SPL
 *   transfer on the chain simulator (deposit.ts);
 * then a PAYIN and a PAYOUT end COMPLETED, the PAYOUT's deposit is swept into the treasury (its
 * deposit_sweeps row DONE: no route shows sweeps, so the database is asked), GET /admin/treasury
 * shows drift 0 in SOL and USDC, and the operator's invitation sits in the mail sink.
 * Each check has a deadline; the first failure throws with what was seen.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { decimal } from '../../src/lib/money.ts';
import { signerFromSeed } from '../../src/lib/key-vault.ts';
import { depositUsdc } from './deposit.ts';
import { expectStatus } from './https-client.ts';
import { postJson } from './simulators.ts';
import type { Deployment } from './start.ts';
import type { Supervisor } from './supervisor.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ORDER_DEADLINE_MS = 30_000;
const FINAL = ['COMPLETED', 'FAILED', 'EXPIRED', 'REFUNDED'];

/** A valid CPF (two check digits, mod 11), fresh each run: a document is unique per merchant. */
function randomCpf(): string {
  const digits = Array.from(randomBytes(9), (byte) => byte % 10);
  for (const weight of [10, 11]) {
    const rest = digits.reduce((sum, digit, i) => sum + digit * (weight - i), 0) % 11;
    digits.push(rest < 2 ? 0 : 11 - rest);
  }
  return digits.join('');
}

async function until<T>(what: string, deadlineMs: number, probe: () => Promise<{ done: boolean; value: T }>): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const { done, value } = await probe();
    if (done) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${deadlineMs / 1000} s; last seen ${JSON.stringify(value).slice(0, 600)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function runSmoke(run: Supervisor, deployment: Deployment): Promise<void> {
  const { client, apiUrl, merchant } = deployment;
  const merchantHeaders: Record<string, string> = { 'x-api-key': merchant.apiKey, 'x-api-secret': merchant.apiSecret };
  const adminHeaders = { authorization: `Bearer ${deployment.env.ADMIN_TOKEN}` };
  const api = async (method: 'GET' | 'POST', path: string, status: number, body?: unknown, headers = merchantHeaders) => expectStatus(await client.call(method, `${apiUrl}${path}`, { ...(body === undefined ? {} : { body }), headers }), status, `${method} ${path}`);
  const finalOrder = (id: string) => until(`order ${id} final`, ORDER_DEADLINE_MS, async () => {
    const order = await api('GET', `/orders/${id}`, 200);
    return { done: FINAL.includes(order.status as string), value: order };
  });

  const receiver = await run.step('smoke: receiver', async () => {
    const wallet = signerFromSeed(randomBytes(32)).address;
    const created = await api('POST', '/receivers', 201, { type: 'PF', document: randomCpf(), name: 'Maria Silva', email: 'maria@example.com', walletAddress: wallet, limits: { nightTransactionsEnabled: true } });
    await api('POST', `/receivers/${created.id}/kyc`, 200, { birthDate: '1990-04-12', documents: [{ type: 'ID_FRONT', reference: 's3://kyc/maria/id-front.jpg' }, { type: 'SELFIE', reference: 's3://kyc/maria/selfie.jpg' }] });
    await api('POST', `/admin/receivers/${created.id}/kyc/start-review`, 200, undefined, adminHeaders);
    return api('POST', `/admin/receivers/${created.id}/kyc/approve`, 200, undefined, adminHeaders);
  }, (r) => `${r.id} ${r.status}, KYC ${r.kycStatus} by the operator (no sandbox route)`);

  await run.step('smoke: PAYIN', async () => {
    const order = await api('POST', '/payin', 201, { receiverId: receiver.id, amountBrl: 54 });
    await postJson(`${deployment.psp.controlUrl}/control/pay`, { pixCopiaECola: order.pixPaymentCode });
    const done = await finalOrder(order.id as string);
    if (done.status !== 'COMPLETED') throw new Error(`PAYIN ${order.id} ended ${done.status}: ${JSON.stringify(done).slice(0, 600)}`);
    return done;
  }, (o) => `${o.id} COMPLETED: 54 BRL paid at the PSP, ${o.amountCrypto} USDC sent from the treasury`);

  const payout = await run.step('smoke: PAYOUT', async () => {
    const order = await api('POST', '/payout', 201, { receiverId: receiver.id, amountCrypto: '1.5', sourceToken: 'USDC' });
    await depositUsdc({ rpcUrl: deployment.chain.rpcUrl, usdcMint: deployment.chain.usdcMint, destination: order.depositAddress as string, amount: '1.5' });
    const done = await finalOrder(order.id as string);
    const pixOut = (done.transactions as Json[]).find((t) => t.type === 'PIX_OUT');
    if (done.status !== 'COMPLETED' || pixOut?.status !== 'CONFIRMED') throw new Error(`PAYOUT ${order.id} ended ${done.status}: ${JSON.stringify(done).slice(0, 600)}`);
    return done;
  }, (o) => `${o.id} COMPLETED: 1.5 USDC deposited on chain, PIX out CONFIRMED at the PSP`);

  await run.step('smoke: sweep', async () => {
    const db = new pg.Client({ connectionString: deployment.env.DATABASE_URL });
    await db.connect();
    try {
      return await until('the PAYOUT deposit swept', ORDER_DEADLINE_MS, async () => {
        const { rows } = await db.query<{ status: string; amount: string }>('select status, amount::text from deposit_sweeps where order_id = $1', [payout.id]);
        return { done: rows[0]?.status === 'DONE', value: rows[0] ?? { status: 'none yet', amount: '0' } };
      });
    } finally {
      await db.end();
    }
  }, (s) => `deposit_sweeps ${s.status}: ${s.amount} USDC into the treasury, fees paid by the sponsor`);

  await run.step('smoke: treasury', () => until('treasury drift 0', ORDER_DEADLINE_MS, async () => {
    const overview = await api('GET', '/admin/treasury', 200, undefined, adminHeaders);
    const currencies = overview.currencies as Json[];
    const settled = currencies.length === 2 && currencies.every((c) => c.drift !== null && decimal(c.drift as string).isZero());
    return { done: settled && overview.onChainSource === 'node', value: currencies.map((c) => `${c.currency} on chain ${c.onChain}, books ${c.ledger}, drift ${c.drift}`).join('; ') };
  }), (line) => line);

  await run.step('smoke: mail', async () => {
    const invitation = deployment.mail.messages.map((file) => readFileSync(file.replace(/\.eml$/, '.txt'), 'utf8')).find((text) => /\/app\/(ops\/)?accept-invitation#[\w-]{20,}/.test(text));
    if (!invitation) throw new Error(`no invitation among the ${deployment.mail.messages.length} messages of the mail sink`);
    return deployment.mail.messages.length;
  }, (n) => `${n} message(s) in the sink, the operator's invitation link among them`);
}
