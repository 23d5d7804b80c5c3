/**
 * The sandbox chain (src/adapters/chain/sandbox.ts): Solana-shaped deposit addresses (base58 of a
 * 32-byte Ed25519 public key) and signature-shaped transaction hashes (base58 of 64 bytes),
 * a deposit address per order, transfers prepared (nothing sent) then sent once per reference, armed transfer failures for the refund path,
 * simulated deposits only to issued addresses, and state that outlives the adapter instance.
 */
import { createPublicKey } from 'node:crypto';
import { getBase58Encoder, isAddress, isSignature } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainSandboxNotFoundError, ChainSandboxRefusedError, createSandboxChain, type SandboxChain } from '../../src/adapters/chain/sandbox.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { newId } from '../../src/lib/ids.ts';
import { openTestDatabase } from '../helpers/database.ts';

const START = new Date('2026-11-22T15:04:05Z');
const clock = { now: () => START };
const base58 = getBase58Encoder();

let handle: DatabaseHandle;
let chain: SandboxChain;

beforeAll(async () => {
  handle = await openTestDatabase();
  chain = createSandboxChain({ db: handle.db, clock });
});
afterAll(async () => {
  await handle?.close();
});

/** A wallet address that this sandbox did not issue. */
async function wallet(): Promise<string> {
  const other = createSandboxChain({ db: handle.db, clock });
  return (await other.createDepositAddress({ orderId: newId(), token: 'USDC' })).address;
}

describe('createDepositAddress', () => {
  it('answers a fresh Solana address: base58 of a 32-byte Ed25519 public key', async () => {
    const addresses = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const { address } = await chain.createDepositAddress({ orderId: newId(), token: 'USDC' });
      expect(isAddress(address)).toBe(true);
      const bytes = base58.encode(address);
      expect(bytes).toHaveLength(32);
      // The bytes are a valid Ed25519 public key (node:crypto rejects points not on the curve).
      const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(bytes).toString('base64url') }, format: 'jwk' });
      expect(key.asymmetricKeyType).toBe('ed25519');
      addresses.add(address);
    }
    expect(addresses.size).toBe(30);
  });

  it('is idempotent per order, also under concurrency; another token for the order is refused', async () => {
    const orderId = newId();
    const first = await chain.createDepositAddress({ orderId, token: 'USDC' });
    expect(await chain.createDepositAddress({ orderId, token: 'USDC' })).toEqual(first);
    const concurrentOrder = newId();
    const concurrent = await Promise.all(Array.from({ length: 10 }, () => chain.createDepositAddress({ orderId: concurrentOrder, token: 'USDC' })));
    expect(new Set(concurrent.map((a) => a.address)).size).toBe(1);
    expect(concurrent[0]?.address).not.toBe(first.address);
    await expect(chain.createDepositAddress({ orderId, token: 'SOL' })).rejects.toThrow(ChainSandboxRefusedError);
  });
});

describe('prepareTransfer, sendTransfer and getTransferStatus', () => {
  const intent = async (reference = `order-${newId()}`) => ({ reference, token: 'USDC', amount: '18.518518', destination: await wallet() });
  /** Prepares and sends; answers the prepared transfer. */
  const transfer = async (input: Awaited<ReturnType<typeof intent>>) => {
    const prepared = await chain.prepareTransfer(input);
    await chain.sendTransfer(prepared);
    return prepared;
  };

  it('prepares a signature-shaped txHash and sends nothing; once sent it is CONFIRMED at no cost, and re-sending is a no-op', async () => {
    const input = await intent();
    const prepared = await chain.prepareTransfer(input);
    expect(isSignature(prepared.txHash)).toBe(true);
    expect(base58.encode(prepared.txHash)).toHaveLength(64);
    expect(prepared.lastValidBlockHeight).toMatch(/^\d+$/);
    expect(await chain.getTransferStatus(prepared)).toEqual({ status: 'PENDING' });
    expect(await handle.db.selectFrom('sandbox_chain_transfers').select('tx_hash').where('idempotency_key', '=', input.reference).execute()).toEqual([]);

    await chain.sendTransfer(prepared);
    expect(await chain.getTransferStatus(prepared)).toEqual({ status: 'CONFIRMED', costs: { feeLamports: '0', rentLamports: '0' } });
    await chain.sendTransfer(prepared);
    await Promise.all(Array.from({ length: 10 }, () => chain.sendTransfer(prepared)));
    const rows = await handle.db.selectFrom('sandbox_chain_transfers').select(['tx_hash', 'amount']).where('idempotency_key', '=', input.reference).execute();
    expect(rows).toEqual([{ tx_hash: prepared.txHash, amount: expect.stringMatching(/^18\.518518/) }]);
  });

  it('one transfer per reference: another prepared for it is refused when sent; a tampered wire is refused', async () => {
    const input = await intent();
    const first = await transfer(input);
    const second = await chain.prepareTransfer(input);
    expect(second.txHash).not.toBe(first.txHash);
    await expect(chain.sendTransfer(second)).rejects.toThrow(ChainSandboxRefusedError);
    await expect(chain.sendTransfer({ ...first, wire: 'not a wire' })).rejects.toThrow(ChainSandboxRefusedError);
    await expect(chain.sendTransfer({ ...first, txHash: second.txHash })).rejects.toThrow(ChainSandboxRefusedError);
  });

  it('refuses a bad destination or amount', async () => {
    const base = await intent();
    for (const input of [
      { ...base, destination: 'not-an-address' },
      { ...base, destination: '1111111111111111111111111111111' }, // 31 bytes
      { ...base, amount: '0' },
      { ...base, amount: '1.0000001' }, // USDC has 6 decimals
      { ...base, amount: '-1' },
      { ...base, reference: '' },
    ]) {
      await expect(chain.prepareTransfer(input), JSON.stringify(input)).rejects.toThrow(ChainSandboxRefusedError);
    }
  });

  it("takes each token's decimals from SUPPORTED_TOKENS (no code per token); a token it does not name has 9", async () => {
    const configured = createSandboxChain({ db: handle.db, clock, tokenDecimals: { USDC: 6, USDT: 6, PYUSD: 6, TWO: 2 } });
    const base = await intent();
    for (const token of ['USDT', 'PYUSD']) {
      await expect(configured.prepareTransfer({ ...base, token, reference: newId(), amount: '1.000001' })).resolves.toMatchObject({ txHash: expect.any(String) });
      await expect(configured.prepareTransfer({ ...base, token, reference: newId(), amount: '1.0000001' })).rejects.toThrow(`${token} amounts have at most 6 decimals`);
    }
    await expect(configured.prepareTransfer({ ...base, token: 'TWO', reference: newId(), amount: '1.001' })).rejects.toThrow('TWO amounts have at most 2 decimals');
    await expect(chain.prepareTransfer({ ...base, token: 'USDT', reference: newId(), amount: '1.0000001' })).resolves.toMatchObject({ txHash: expect.any(String) });
  });

  it('fails the next transfer sent to an armed destination, once, with the given error', async () => {
    const armed = await intent();
    await chain.failNextTransferTo(armed.destination, 'insufficient funds');
    const elsewhere = await transfer(await intent());
    expect(await chain.getTransferStatus(elsewhere)).toMatchObject({ status: 'CONFIRMED' });

    const failed = await transfer(armed);
    expect(await chain.getTransferStatus(failed)).toEqual({ status: 'FAILED', error: 'insufficient funds', costs: { feeLamports: '0', rentLamports: '0' } });
    // Re-sending answers nothing new: the same (failed) transaction.
    await chain.sendTransfer(failed);
    expect(await chain.getTransferStatus(failed)).toMatchObject({ status: 'FAILED' });

    const retried = await transfer({ ...armed, reference: newId() });
    expect(await chain.getTransferStatus(retried)).toMatchObject({ status: 'CONFIRMED' });
  });

  it('fails the transfer armed for its reference (an order), not another transfer to the same destination', async () => {
    const orderKey = newId();
    const armed = await intent(orderKey);
    await chain.failTransferWithKey(orderKey, 'account frozen');
    const sameWallet = await transfer({ ...armed, reference: newId() });
    expect(await chain.getTransferStatus(sameWallet)).toMatchObject({ status: 'CONFIRMED' });
    const failed = await transfer(armed);
    expect(await chain.getTransferStatus(failed)).toMatchObject({ status: 'FAILED', error: 'account frozen' });
    await expect(chain.failTransferWithKey('', 'x')).rejects.toThrow(ChainSandboxRefusedError);
  });

  it('markTransferFailed turns a sent transfer FAILED; an unknown hash is not found', async () => {
    const sent = await transfer(await intent());
    await chain.markTransferFailed(sent.txHash, 'dropped');
    expect(await chain.getTransferStatus(sent)).toMatchObject({ status: 'FAILED', error: 'dropped' });
    await expect(chain.markTransferFailed('5'.repeat(88), 'x')).rejects.toThrow(ChainSandboxNotFoundError);
  });
});

describe('simulateDeposit', () => {
  it('deposits to an issued address with a new signature-shaped txHash, in the address token', async () => {
    const { address } = await chain.createDepositAddress({ orderId: newId(), token: 'USDC' });
    const deposit = await chain.simulateDeposit({ depositAddress: address, amount: '18.5' });
    expect(deposit).toEqual({ depositAddress: address, token: 'USDC', amount: '18.500000', txHash: expect.any(String), blockTime: expect.any(Date) });
    expect(isSignature(deposit.txHash)).toBe(true);
    const again = await chain.simulateDeposit({ depositAddress: address, amount: '1.000001' });
    expect(again.amount).toBe('1.000001');
    expect(again.txHash).not.toBe(deposit.txHash);
  });

  it('refuses an address it did not issue, and a bad amount', async () => {
    const error = await chain.simulateDeposit({ depositAddress: '11111111111111111111111111111111', amount: '1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChainSandboxNotFoundError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
    const { address } = await chain.createDepositAddress({ orderId: newId(), token: 'USDC' });
    await expect(chain.simulateDeposit({ depositAddress: address, amount: '0.0000001' })).rejects.toThrow(ChainSandboxRefusedError);
  });
});

describe('persistence', () => {
  it('a new instance over the same database sees addresses, transfers and armed failures', async () => {
    const orderId = newId();
    const { address } = await chain.createDepositAddress({ orderId, token: 'USDC' });
    const destination = await wallet();
    const prepared = await chain.prepareTransfer({ reference: newId(), token: 'USDC', amount: '5', destination });
    const armed = await wallet();
    await chain.failNextTransferTo(armed);

    const restarted = createSandboxChain({ db: handle.db, clock });
    expect(await restarted.createDepositAddress({ orderId, token: 'USDC' })).toEqual({ address });
    // Prepared by one instance, sent by another (a worker that took over).
    await restarted.sendTransfer(prepared);
    expect(await restarted.getTransferStatus(prepared)).toMatchObject({ status: 'CONFIRMED' });
    expect((await restarted.simulateDeposit({ depositAddress: address, amount: '5' })).depositAddress).toBe(address);
    const failed = await restarted.prepareTransfer({ reference: newId(), token: 'USDC', amount: '1', destination: armed });
    await restarted.sendTransfer(failed);
    expect(await restarted.getTransferStatus(failed)).toMatchObject({ status: 'FAILED', error: 'sandbox: transfer failed' });
  });
});
