/**
 * The sandbox chain (src/adapters/chain/sandbox.ts): Solana-shaped deposit addresses (base58 of a
 * 32-byte Ed25519 public key) and signature-shaped transaction hashes (base58 of 64 bytes),
 * idempotency per order and per idempotency key, armed transfer failures for the refund path,
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

describe('transferToken and getTransferStatus', () => {
  it('answers a signature-shaped txHash, CONFIRMED, idempotent per key; another body under the key is refused', async () => {
    const destination = await wallet();
    const input = { idempotencyKey: `transfer-${newId()}`, token: 'USDC', amount: '18.518518', destination };
    const first = await chain.transferToken(input);
    expect(isSignature(first.txHash)).toBe(true);
    expect(base58.encode(first.txHash)).toHaveLength(64);
    expect(await chain.getTransferStatus(first.txHash)).toEqual({ status: 'CONFIRMED' });

    expect(await chain.transferToken(input)).toEqual(first);
    expect(await chain.transferToken({ ...input, amount: '18.5185180' })).toEqual(first);
    const concurrent = await Promise.all(Array.from({ length: 10 }, () => chain.transferToken(input)));
    for (const answer of concurrent) expect(answer).toEqual(first);
    await expect(chain.transferToken({ ...input, amount: '18.518519' })).rejects.toThrow(ChainSandboxRefusedError);
    await expect(chain.transferToken({ ...input, destination: await wallet() })).rejects.toThrow(ChainSandboxRefusedError);

    const second = await chain.transferToken({ ...input, idempotencyKey: `transfer-${newId()}` });
    expect(second.txHash).not.toBe(first.txHash);
  });

  it('refuses a bad destination or amount', async () => {
    const base = { idempotencyKey: newId(), token: 'USDC', amount: '1', destination: await wallet() };
    for (const input of [
      { ...base, destination: 'not-an-address' },
      { ...base, destination: '1111111111111111111111111111111' }, // 31 bytes
      { ...base, amount: '0' },
      { ...base, amount: '1.0000001' }, // USDC has 6 decimals
      { ...base, amount: '-1' },
      { ...base, idempotencyKey: '' },
    ]) {
      await expect(chain.transferToken(input), JSON.stringify(input)).rejects.toThrow(ChainSandboxRefusedError);
    }
  });

  it('fails the next transfer to an armed destination, once, with the given error', async () => {
    const destination = await wallet();
    const bystander = await wallet();
    await chain.failNextTransferTo(destination, 'insufficient funds');

    const elsewhere = await chain.transferToken({ idempotencyKey: newId(), token: 'USDC', amount: '1', destination: bystander });
    expect(await chain.getTransferStatus(elsewhere.txHash)).toEqual({ status: 'CONFIRMED' });

    const failedInput = { idempotencyKey: newId(), token: 'USDC', amount: '2', destination };
    const failed = await chain.transferToken(failedInput);
    expect(await chain.getTransferStatus(failed.txHash)).toEqual({ status: 'FAILED', error: 'insufficient funds' });
    // The repeat answers the same (failed) transaction; it does not retry on its own.
    expect(await chain.transferToken(failedInput)).toEqual(failed);
    expect(await chain.getTransferStatus(failed.txHash)).toMatchObject({ status: 'FAILED' });

    const retried = await chain.transferToken({ ...failedInput, idempotencyKey: newId() });
    expect(await chain.getTransferStatus(retried.txHash)).toEqual({ status: 'CONFIRMED' });
  });

  it('fails the transfer armed for its idempotency key (an order), not another transfer to the same destination', async () => {
    const destination = await wallet();
    const orderKey = newId();
    await chain.failTransferWithKey(orderKey, 'account frozen');
    const sameWallet = await chain.transferToken({ idempotencyKey: newId(), token: 'USDC', amount: '1', destination });
    expect(await chain.getTransferStatus(sameWallet.txHash)).toEqual({ status: 'CONFIRMED' });
    const armed = await chain.transferToken({ idempotencyKey: orderKey, token: 'USDC', amount: '2', destination });
    expect(await chain.getTransferStatus(armed.txHash)).toEqual({ status: 'FAILED', error: 'account frozen' });
    await expect(chain.failTransferWithKey('', 'x')).rejects.toThrow(ChainSandboxRefusedError);
  });

  it('markTransferFailed turns a sent transfer FAILED; unknown hashes are not found', async () => {
    const sent = await chain.transferToken({ idempotencyKey: newId(), token: 'USDC', amount: '3', destination: await wallet() });
    await chain.markTransferFailed(sent.txHash, 'dropped');
    expect(await chain.getTransferStatus(sent.txHash)).toEqual({ status: 'FAILED', error: 'dropped' });

    const unknown = '5'.repeat(88);
    await expect(chain.getTransferStatus(unknown)).rejects.toThrow(ChainSandboxNotFoundError);
    await expect(chain.markTransferFailed(unknown, 'x')).rejects.toThrow(ChainSandboxNotFoundError);
  });
});

describe('simulateDeposit', () => {
  it('deposits to an issued address with a new signature-shaped txHash, in the address token', async () => {
    const { address } = await chain.createDepositAddress({ orderId: newId(), token: 'USDC' });
    const deposit = await chain.simulateDeposit({ depositAddress: address, amount: '18.5' });
    expect(deposit).toEqual({ depositAddress: address, token: 'USDC', amount: '18.500000', txHash: expect.any(String) });
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
    const input = { idempotencyKey: newId(), token: 'USDC', amount: '5', destination };
    const sent = await chain.transferToken(input);
    const armed = await wallet();
    await chain.failNextTransferTo(armed);

    const restarted = createSandboxChain({ db: handle.db, clock });
    expect(await restarted.createDepositAddress({ orderId, token: 'USDC' })).toEqual({ address });
    expect(await restarted.transferToken(input)).toEqual(sent);
    expect(await restarted.getTransferStatus(sent.txHash)).toEqual({ status: 'CONFIRMED' });
    expect((await restarted.simulateDeposit({ depositAddress: address, amount: '5' })).depositAddress).toBe(address);
    const failed = await restarted.transferToken({ idempotencyKey: newId(), token: 'USDC', amount: '1', destination: armed });
    expect(await restarted.getTransferStatus(failed.txHash)).toEqual({ status: 'FAILED', error: 'sandbox: transfer failed' });
  });
});
