/**
 * CHAIN_PROVIDER picks the orders' transfers: the sandbox chain by default; with solana-rpc,
 * transfers through the node signed by the TREASURY key sealed in platform_keys (or a signer the
 * caller gives), and PAYOUT deposit addresses sealed keypairs of the deposits module, their token
 * accounts derived from the mint read on the node.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainUnavailableError } from '../../../src/adapters/chain/transactions-port.ts';
import { createMetrics } from '../../../src/http/metrics.ts';
import { createWorkerJobs } from '../../../src/jobs.ts';
import { systemClock } from '../../../src/lib/clock.ts';
import { signerFromSeed } from '../../../src/lib/key-vault.ts';
import { createServices } from '../../../src/services.ts';
import { createTestContext, type TestContext, testConfig } from '../../helpers/app.ts';
import { WALLET } from './helpers.ts';

const SOLANA_RPC = { CHAIN_PROVIDER: 'solana-rpc', SOLANA_RPC_URL: 'http://127.0.0.1:1', CHAIN_TOKEN_MINTS: 'USDC:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' };

describe('CHAIN_PROVIDER', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('sandbox (the default): the orders chain is the sandbox chain', () => {
    expect(ctx.app.services.adapters.chain).toBe(ctx.app.services.adapters.sandbox.chain);
  });

  it('solana-rpc: the stored TREASURY key signs (never the sponsor)', async () => {
    const app = await ctx.buildApp(SOLANA_RPC);
    const { TREASURY, SPONSOR } = app.services.platformKeysAtStart.signers;
    expect(TREASURY.address).not.toBe(SPONSOR.address);
    expect(app.services.adapters.chain).not.toBe(app.services.adapters.sandbox.chain);
  });

  it('solana-rpc with one: transfers and deposit addresses go to the node (unreachable: ChainUnavailableError naming the method)', async () => {
    const services = await createServices({ config: testConfig(SOLANA_RPC), db: ctx.database.db, clock: systemClock, treasurySigner: signerFromSeed(randomBytes(32)) });
    const { chain, sandbox } = services.adapters;
    expect(chain).not.toBe(sandbox.chain);
    const error = await chain.prepareTransfer({ reference: 'o', token: 'USDC', amount: '1', destination: WALLET }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChainUnavailableError);
    expect((error as Error).message).toMatch(/^Solana RPC getAccountInfo failed/);
    expect((error as Error).message).not.toContain('127.0.0.1');
    // A deposit address needs the mint's token program, read on the node: nothing is stored without it.
    const refused = await services.depositAddresses!.create({ orderId: 'payout-reference', token: 'USDC' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ChainUnavailableError);
    expect((refused as Error).message).toMatch(/^Solana RPC getAccountInfo failed/);
    expect(await ctx.database.db.selectFrom('deposit_addresses').select('reference').execute()).toEqual([]);
    expect(services.depositWatcher).toBeDefined();
  });

  it('sandbox (the default): no deposit addresses of its own, no watcher and no sweeps', () => {
    expect(ctx.app.services.depositAddresses).toBeUndefined();
    expect(ctx.app.services.depositWatcher).toBeUndefined();
    expect(ctx.app.services.sweeper).toBeUndefined();
    const names = createWorkerJobs(ctx.app.services, ctx.config, createMetrics()).map((job) => job.name);
    expect(names).not.toContain('deposit-watcher');
    expect(names).not.toContain('deposit-sweeps');
  });
});
