/**
 * Issue 24, finding 6: a provider failure answers 503 PROVIDER_UNAVAILABLE without the provider's
 * host, port or error text; those go to the log line of the failed request, with its request id.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { type TestContext, createTestContext, expectErrorBody } from '../helpers/app.ts';
import { randomCpf } from '../helpers/documents.ts';
import { freePort } from '../helpers/processes.ts';
import { unreachablePspEnv } from '../helpers/unreachable-psp.ts';
import { buildTransaction, newAddress, transferSol } from '../modules/wallets/helpers.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A logger whose JSON lines the test reads back. */
function capturedLogger() {
  const lines: Json[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean).map((line) => JSON.parse(line) as Json));
      done();
    },
  });
  return { logger: createLogger('info', sink), lines };
}

/** The answer carries none of the provider's words; the request's error log line carries them. */
function expectInternalsOnlyInLog(response: { body: string }, lines: Json[], requestId: string, internals: RegExp[]) {
  for (const internal of internals) expect(response.body).not.toMatch(internal);
  const logged = lines.filter((line) => line.requestId === requestId && line.err);
  expect(logged, JSON.stringify(lines.filter((line) => line.requestId === requestId))).toHaveLength(1);
  for (const internal of internals) expect(JSON.stringify(logged[0]!.err)).toMatch(internal);
}

describe('provider failures answer without internals', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('an order against an unreachable PSP (api-pix): no host, port or error text in the answer', { timeout: 30_000 }, async () => {
    const { logger, lines } = capturedLogger();
    const app = await ctx.buildApp(
      {
        ...(await unreachablePspEnv({ publicUrl: 'http://127.0.0.1:1', token: 't'.repeat(32) })),
        PIX_API_MAX_ATTEMPTS: '1',
        PIX_API_TIMEOUT_MS: '2000',
      },
      logger,
    );
    const merchant = await ctx.createMerchant('Unreachable PSP');
    const created = await app.inject({ method: 'POST', url: '/api/v1/receivers', headers: merchant.headers, payload: { type: 'PF', document: randomCpf(), name: 'Ana Souza', email: 'ana@example.com', walletAddress: newAddress(), limits: { nightTransactionsEnabled: true } } });
    expect(created.statusCode, created.body).toBe(201);
    await app.services.receivers.decideKyc(created.json().id, { approved: true }, { actor: 'test' }, { allowFromPending: true });

    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/payin',
      headers: { ...merchant.headers, 'x-request-id': 'unreachable-psp-1' },
      payload: { receiverId: created.json().id, amountBrl: 20 },
    });
    const body = expectErrorBody(response, 503, 'PROVIDER_UNAVAILABLE');
    expect(body.details).toBeUndefined();
    expectInternalsOnlyInLog(response, lines, 'unreachable-psp-1', [/127\.0\.0\.1/, /ECONNREFUSED/, /OAuth2/]);
  });

  it('a wallet send against an unreachable Solana node: no chain error in the answer', async () => {
    const { logger, lines } = capturedLogger();
    const port = await freePort(); // closed once freePort returns: the node refuses the connection
    const app = await ctx.buildApp({ SOLANA_RPC_URL: `http://127.0.0.1:${port}` }, logger);
    const merchant = await ctx.createMerchant('Unreachable node');
    const wallet = (await app.inject({ url: '/api/v1/merchant/wallet', headers: merchant.headers })).json().address as string;
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/merchant/wallet/sign-and-send-transaction',
      headers: { ...merchant.headers, 'x-request-id': 'unreachable-node-1' },
      payload: { transaction: buildTransaction(wallet, [transferSol(wallet, newAddress(), 1n)]) },
    });
    const body = expectErrorBody(response, 503, 'PROVIDER_UNAVAILABLE');
    expect(body.details).toBeUndefined();
    expectInternalsOnlyInLog(response, lines, 'unreachable-node-1', [/Solana RPC getLatestBlockhash failed/, /ECONNREFUSED/]);
  });
});
