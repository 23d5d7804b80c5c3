/**
 * Issue 40, "readiness with dependencies": GET /readyz reports each dependency, and POST /payin and
 * /payout refuse what needs one that is down (503 PROVIDER_UNAVAILABLE naming it, nothing written),
 * until it answers again (docs/architecture/dependency-health.md). The PSP is the PSP simulator on
 * a port where, at first, nothing listens; the chain is the chain simulator answering 503 to every
 * request while its fault is set. The service's clock is a TestClock: the rules' windows (a probe
 * after 10 s without a call, failures counted for 60 s) pass by hand, never by waiting.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Address, address } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreatePki } from '../../../tools/psp-simulator/certificates.ts';
import { startSimulator } from '../../../tools/psp-simulator/server.ts';
import type { ChainSimulator } from '../../../tools/chain-simulator/index.ts';
import { expectErrorBody } from '../../helpers/app.ts';
import { solanaRpcSettings, startHandClockedChain } from '../../helpers/chain-simulator.ts';
import { freePort } from '../../helpers/processes.ts';
import { type Json, ordersTest } from '../orders/helpers.ts';

type OrdersTest = ReturnType<typeof ordersTest>;

const countOf = async (t: OrdersTest, table: 'orders' | 'sandbox_chain_deposit_addresses' | 'sandbox_pix_charges') =>
  Number((await t.ctx.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

const readiness = async (t: OrdersTest) => {
  const response = await t.ctx.app.inject({ url: '/readyz' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Json;
};

/**
 * GET /readyz until it shows the probe of `dependency` it started ended now (by the test clock) in
 * `outcome`: readiness waits at most 1 s for a probe, and a slower one shows in a later answer.
 */
async function readinessAfterProbe(t: OrdersTest, dependency: string, outcome: 'success' | 'failure') {
  const field = outcome === 'success' ? 'lastSuccessAt' : 'lastFailureAt';
  for (let attempt = 0; attempt < 100; attempt++) {
    const body = await readiness(t);
    if (body.dependencies[dependency][field] === t.clock.now().toISOString()) return body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no ${outcome} of ${dependency} shown by GET /readyz`);
}

const metrics = async (t: OrdersTest) => (await t.ctx.app.inject({ url: '/metrics' })).body;

/** A refusal for `dependency`: our words only, never the provider's host or port. */
function expectRefusedFor(response: Parameters<typeof expectErrorBody>[0], dependency: string, hidden: string[]) {
  const body = expectErrorBody(response, 503, 'PROVIDER_UNAVAILABLE');
  expect(body.details).toEqual({ dependency });
  for (const text of hidden) expect(body.message).not.toContain(text);
  return body;
}

describe('the PSP down, then answering again', () => {
  let port: number;
  let dir: string;
  let env: Record<string, string>;
  let psp: Awaited<ReturnType<typeof startSimulator>> | undefined;

  // Before the app is built (ordersTest reads its settings then): a port where nothing listens yet.
  beforeAll(async () => {
    port = await freePort();
    dir = mkdtempSync(path.join(tmpdir(), 'readiness-psp-'));
    const pki = await loadOrCreatePki(path.join(dir, 'pki'));
    env = {
      PIX_PROVIDER: 'api-pix',
      PIX_API_BASE_URL: `https://localhost:${port}/v2`,
      PIX_OAUTH_TOKEN_URL: `https://localhost:${port}/oauth/token`,
      PIX_OUT_BASE_URL: `https://localhost:${port}`,
      PIX_CLIENT_ID: 'simulator-client',
      PIX_CLIENT_SECRET: 'simulator-client-secret-0123456789',
      PIX_CLIENT_CERT: pki.clientCertPem,
      PIX_CLIENT_KEY: pki.clientKeyPem,
      PIX_CA_CERT: pki.caPem,
      PIX_API_TIMEOUT_MS: '2000',
      // One attempt per call: a refused connection fails at once instead of after the backoff.
      PIX_API_MAX_ATTEMPTS: '1',
      PIX_WEBHOOK_PUBLIC_URL: 'http://127.0.0.1:9',
      PIX_WEBHOOK_TOKEN: 'readiness-webhook-token-0123456789abcdef',
    };
  });
  afterAll(() => psp?.close());

  const t = ordersTest(() => env);

  it('readiness says degraded naming the PSP, PAYIN and PAYOUT are refused before anything is written, and both are taken again once it answers', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const payout = () => t.call('POST', '/payout', merchant, { receiverId: receiver.id, amountCrypto: 10, sourceToken: 'USDC' });
    const payin = () => t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 50 });

    // Nothing listens: readiness probes the PSP (never reached since the start: down at once).
    const down = await readinessAfterProbe(t, 'psp', 'failure');
    expect(down).toMatchObject({ status: 'degraded', ordersRefused: ['PAYIN', 'PAYOUT'] });
    expect(down.dependencies.psp).toMatchObject({ provider: 'api-pix', state: 'down', lastSuccessAt: null, lastFailureAt: expect.any(String) });
    expect(down.dependencies.database.state).toBe('ok');

    const hidden = [String(port), 'localhost', '127.0.0.1', 'ECONNREFUSED'];
    expectRefusedFor(await payout(), 'psp', hidden);
    const refused = expectRefusedFor(await payin(), 'psp', hidden);
    expect(refused.message).toMatch(/^The PIX provider is unavailable/);
    expect(await countOf(t, 'orders')).toBe(0);
    expect(await countOf(t, 'sandbox_chain_deposit_addresses')).toBe(0);

    const figures = await metrics(t);
    expect(figures).toMatch(/provider_calls_total\{provider="psp",operation="getChargePayment",outcome="error"\} [1-9]/);
    expect(figures).toMatch(/provider_call_duration_seconds_count\{provider="psp",operation="getChargePayment",outcome="error"\} [1-9]/);
    expect(figures).toContain('dependency_up{dependency="psp"} 0');
    expect(figures).toContain('dependency_up{dependency="database"} 1');

    // The PSP answers on that port; the next readiness after 10 s without a call probes it again.
    psp = await startSimulator({ dir, port, controlPort: 0 });
    t.clock.advance(11_000);
    const back = await readinessAfterProbe(t, 'psp', 'success');
    expect(back).toMatchObject({ status: 'degraded', ordersRefused: [] });
    expect(back.dependencies.psp).toMatchObject({ state: 'degraded', lastSuccessAt: expect.any(String) });
    const takenPayout = await payout();
    expect(takenPayout.statusCode, takenPayout.body).toBe(201);
    const takenPayin = await payin();
    expect(takenPayin.statusCode, takenPayin.body).toBe(201);
    expect(await metrics(t)).toMatch(/provider_calls_total\{provider="psp",operation="createCharge",outcome="ok"\} 1/);

    // A minute without a failure: ok again, and the process ready.
    t.clock.advance(61_000);
    const ok = await readinessAfterProbe(t, 'psp', 'success');
    expect(ok).toMatchObject({ status: 'ready', ordersRefused: [] });
    expect(ok.dependencies.psp.state).toBe('ok');
    expect(await metrics(t)).toContain('dependency_up{dependency="psp"} 1');
  });
});

describe('the chain node down, then answering again', () => {
  let sim: ChainSimulator;
  let usdc: Address;
  beforeAll(async () => {
    ({ sim, usdc } = await startHandClockedChain(3));
  });
  afterAll(() => sim?.close());

  const t = ordersTest(() => solanaRpcSettings(sim.url, usdc));
  beforeAll(async () => {
    const treasury = address(t.ctx.app.services.platformKeysAtStart.signers.TREASURY.address);
    await sim.airdrop(treasury, 10_000_000_000n);
    await sim.mintTo({ mint: usdc, owner: treasury, amount: 1_000_000_000_000n });
  });

  it('readiness goes degraded then down naming the chain, a PAYIN (and a PAYOUT) is refused while it is down, and taken again once it answers', async () => {
    const { merchant, receiver } = await t.merchantWithReceiver();
    const payin = () => t.call('POST', '/payin', merchant, { receiverId: receiver.id, amountBrl: 50 });
    const before = await readinessAfterProbe(t, 'chain', 'success');
    expect(before).toMatchObject({ status: 'ready', ordersRefused: [] });
    expect(before.dependencies.chain).toMatchObject({ provider: 'solana-rpc', state: 'ok', lastSuccessAt: expect.any(String) });
    expect((await payin()).statusCode).toBe(201);

    // Every request answered 503: one failed probe after a success is degraded (PAYINs still taken)...
    await sim.setFaults({ http: { status: 503, durationMs: 600_000 } });
    try {
      t.clock.advance(11_000);
      const degraded = await readinessAfterProbe(t, 'chain', 'failure');
      expect(degraded).toMatchObject({ status: 'degraded', ordersRefused: [] });
      expect(degraded.dependencies.chain.state).toBe('degraded');
      // ...three in a row are down.
      for (let i = 0; i < 2; i++) {
        t.clock.advance(11_000);
        await readinessAfterProbe(t, 'chain', 'failure');
      }
      const down = await readiness(t);
      expect(down).toMatchObject({ status: 'degraded', ordersRefused: ['PAYIN', 'PAYOUT'] });
      expect(down.dependencies.chain.state).toBe('down');
      const orders = await countOf(t, 'orders');
      const charges = await countOf(t, 'sandbox_pix_charges');
      const refused = expectRefusedFor(await payin(), 'chain', [new URL(sim.url).host, '503']);
      expect(refused.message).toMatch(/^The chain's RPC node is unavailable/);
      expect(await countOf(t, 'orders')).toBe(orders);
      expect(await countOf(t, 'sandbox_pix_charges')).toBe(charges);
      // A PAYOUT too: its deposit address is read on the node, refused without asking it.
      expectRefusedFor(await t.call('POST', '/payout', merchant, { receiverId: receiver.id, amountCrypto: 10, sourceToken: 'USDC' }), 'chain', [new URL(sim.url).host]);
      expect(await countOf(t, 'orders')).toBe(orders);
      const figures = await metrics(t);
      expect(figures).toMatch(/provider_calls_total\{provider="chain",operation="getHealth",outcome="error"\} 3/);
      expect(figures).toContain('dependency_up{dependency="chain"} 0');
    } finally {
      await sim.reset();
    }

    t.clock.advance(11_000);
    const back = await readinessAfterProbe(t, 'chain', 'success');
    expect(back).toMatchObject({ status: 'degraded', ordersRefused: [] });
    expect(back.dependencies.chain.state).toBe('degraded');
    expect(await metrics(t)).toContain('dependency_up{dependency="chain"} 0.5');
    const taken = await payin();
    expect(taken.statusCode, taken.body).toBe(201);
    t.clock.advance(61_000);
    const ok = await readinessAfterProbe(t, 'chain', 'success');
    expect(ok).toMatchObject({ status: 'ready', ordersRefused: [] });
    expect(ok.dependencies.chain.state).toBe('ok');
  });
});
