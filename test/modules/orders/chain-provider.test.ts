/**
 * CHAIN_PROVIDER picks the orders' transfers: the sandbox chain by default; with solana-rpc,
 * transfers through the node signed by the TREASURY key sealed in platform_keys (or a signer the
 * caller gives), deposit addresses still the sandbox chain's.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainUnavailableError } from '../../../src/adapters/chain/transactions-port.ts';
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

  it("solana-rpc with one: transfers go to the node (unreachable: ChainUnavailableError naming the method), deposit addresses stay the sandbox chain's", async () => {
    const services = await createServices({ config: testConfig(SOLANA_RPC), db: ctx.database.db, clock: systemClock, treasurySigner: signerFromSeed(randomBytes(32)) });
    const { chain, sandbox } = services.adapters;
    expect(chain).not.toBe(sandbox.chain);
    const error = await chain.prepareTransfer({ reference: 'o', token: 'USDC', amount: '1', destination: WALLET }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChainUnavailableError);
    expect((error as Error).message).toMatch(/^Solana RPC getAccountInfo failed/);
    expect((error as Error).message).not.toContain('127.0.0.1');
    const { address } = await chain.createDepositAddress({ orderId: 'payout-reference', token: 'USDC' });
    expect(await sandbox.chain.createDepositAddress({ orderId: 'payout-reference', token: 'USDC' })).toEqual({ address });
  });
});
