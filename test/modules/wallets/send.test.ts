import { address } from '@solana/kit';
import { AccountState, findAssociatedTokenPda, getCreateAssociatedTokenIdempotentInstruction, getMintEncoder, getTokenDecoder, getTokenEncoder, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import type { LiteSvmSandbox } from '../../../src/adapters/chain/litesvm-sandbox.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTransaction, newAddress, noop, transferSol } from './helpers.ts';
import { type WalletsFixture, createWalletsFixture } from './fixture.ts';

describe('managed wallets: sign-and-send-transaction', () => {
  let ctx: WalletsFixture['ctx'];
  let receiver: WalletsFixture['receiver'];
  let sponsor: WalletsFixture['sponsor'];
  let call: WalletsFixture['call'];
  let balance: WalletsFixture['balance'];
  let send: WalletsFixture['send'];

  beforeAll(async () => {
    ({ ctx, receiver, sponsor, call, balance, send } = await createWalletsFixture());
  });
  afterAll(() => ctx.close());

  describe('sign-and-send-transaction', () => {
    it('an honest SOL transfer executes on the sandbox chain: the sponsor pays exactly the fee, the receiver exactly the transfer', async () => {
      const destination = newAddress();
      const amount = 123_456_789n;
      const [sponsorBefore, walletBefore] = [await balance(sponsor), await balance(receiver.walletAddress)];
      const response = await send(buildTransaction(receiver.walletAddress, [transferSol(receiver.walletAddress, destination, amount)]));
      expect(response.statusCode, response.body).toBe(200);
      const { hash } = response.json();
      expect(hash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
      // Two signatures (sponsor and managed key) at 5,000 lamports each, no priority fee.
      expect(sponsorBefore - (await balance(sponsor))).toBe(10_000n);
      expect(walletBefore - (await balance(receiver.walletAddress))).toBe(amount);
      expect(await balance(destination)).toBe(amount);
      const status = await call('GET', `/sandbox/wallet/transactions/${hash}`);
      expect(status.json()).toMatchObject({ signature: hash, status: 'FINALIZED' });
      const audit = await ctx.database.db.selectFrom('wallet_sign_requests').selectAll().where('signature', '=', hash).executeTakeFirstOrThrow();
      expect(audit).toMatchObject({ receiver_id: receiver.id, operation: 'SIGN_AND_SEND', outcome: 'SENT', reason: null, fee_lamports: 10_000 });
    });

    it('an honest USDC transfer (destination token account created and paid by the wallet) executes; the sponsor pays only the fee', async () => {
      const svm = await (ctx.app.services.wallets.chain as LiteSvmSandbox).vm();
      const usdc = newAddress();
      const owner = address(receiver.walletAddress);
      const destination = newAddress();
      const [source] = await findAssociatedTokenPda({ owner, mint: usdc, tokenProgram: TOKEN_PROGRAM_ADDRESS });
      const [target] = await findAssociatedTokenPda({ owner: destination, mint: usdc, tokenProgram: TOKEN_PROGRAM_ADDRESS });
      const account = (addr: typeof usdc, data: Uint8Array) => ({ address: addr, data, executable: false, lamports: 10_000_000n as never, programAddress: TOKEN_PROGRAM_ADDRESS, space: BigInt(data.length) });
      svm.setAccount(account(usdc, new Uint8Array(getMintEncoder().encode({ mintAuthority: null, supply: 100_000_000n, decimals: 6, isInitialized: true, freezeAuthority: null }))));
      svm.setAccount(
        account(source, new Uint8Array(getTokenEncoder().encode({ mint: usdc, owner, amount: 100_000_000n, delegate: null, state: AccountState.Initialized, isNative: null, delegatedAmount: 0n, closeAuthority: null }))),
      );
      const tokens = (addr: typeof usdc) => {
        const found = svm.getAccount(addr);
        return found.exists ? getTokenDecoder().decode(found.data).amount : 0n;
      };
      const sponsorBefore = await balance(sponsor);
      const response = await send(
        buildTransaction(receiver.walletAddress, [
          getCreateAssociatedTokenIdempotentInstruction({ payer: noop(receiver.walletAddress), ata: target, owner: destination, mint: usdc }),
          getTransferCheckedInstruction({ source, mint: usdc, destination: target, authority: noop(receiver.walletAddress), amount: 12_345_678n, decimals: 6 }),
        ]),
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(sponsorBefore - (await balance(sponsor))).toBe(10_000n);
      expect(tokens(source)).toBe(100_000_000n - 12_345_678n);
      expect(tokens(target)).toBe(12_345_678n);
    });

    it('accepts the sponsor already set as fee payer, and a legacy message', async () => {
      const before = await balance(sponsor);
      const response = await send(buildTransaction(sponsor, [transferSol(receiver.walletAddress, newAddress(), 1_000_000n)], 'legacy'));
      expect(response.statusCode, response.body).toBe(200);
      expect(before - (await balance(sponsor))).toBe(10_000n);
    });

    it('the same transaction twice is sent twice (a fresh blockhash each time)', async () => {
      const tx = buildTransaction(receiver.walletAddress, [transferSol(receiver.walletAddress, newAddress(), 1_000_000n)]);
      const first = await send(tx);
      const second = await send(tx);
      expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
      expect(first.json().hash).not.toBe(second.json().hash);
    });
  });
});
