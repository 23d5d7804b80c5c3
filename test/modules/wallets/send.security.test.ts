import { address } from '@solana/kit';
import { getAdvanceNonceAccountInstruction, getCreateAccountInstruction } from '@solana-program/system';
import { findAssociatedTokenPda, getCreateAssociatedTokenInstruction, getTransferInstruction, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorBody } from '../../helpers/app.ts';
import { buildTransaction, computeUnitPrice, memo, MEMO_PROGRAM, newAddress, noop, transferSol } from './helpers.ts';
import { type WalletsFixture, SOL, createWalletsFixture } from './fixture.ts';

describe('managed wallets: sign-and-send security', () => {
  let ctx: WalletsFixture['ctx'];
  let receiver: WalletsFixture['receiver'];
  let sponsor: WalletsFixture['sponsor'];
  let balance: WalletsFixture['balance'];
  let send: WalletsFixture['send'];

  beforeAll(async () => {
    ({ ctx, receiver, sponsor, balance, send } = await createWalletsFixture());
  });
  afterAll(() => ctx.close());

  describe('sign-and-send-transaction', () => {
    describe('drain attempts, each refused with its reason before anything is sent', () => {
      const attacker = newAddress();
      const cases: Array<[string, () => Promise<string>, string]> = [
        ['a System transfer from the sponsor', async () => buildTransaction(receiver.walletAddress, [transferSol(receiver.walletAddress, attacker, 1n), transferSol(sponsor, attacker, SOL)]), 'SPONSOR_TRANSFER'],
        [
          'CreateAccount funded by the sponsor',
          async () =>
            buildTransaction(receiver.walletAddress, [
              getCreateAccountInstruction({ payer: noop(sponsor), newAccount: noop(receiver.walletAddress), lamports: 10_000_000n, space: 0, programAddress: address(attacker) }),
            ]),
          'SPONSOR_FUNDS_ACCOUNT',
        ],
        [
          'an associated-token-account creation paid by the sponsor',
          async () => {
            const mint = newAddress();
            const [ata] = await findAssociatedTokenPda({ owner: address(receiver.walletAddress), mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
            return buildTransaction(receiver.walletAddress, [getCreateAssociatedTokenInstruction({ payer: noop(sponsor), ata, owner: address(receiver.walletAddress), mint })]);
          },
          'SPONSOR_PAYS_RENT',
        ],
        [
          'the sponsor as a writable account of an SPL instruction',
          async () =>
            buildTransaction(receiver.walletAddress, [getTransferInstruction({ source: newAddress(), destination: address(sponsor), authority: noop(receiver.walletAddress), amount: 1n })]),
          'SPONSOR_IN_INSTRUCTION',
        ],
        [
          'the sponsor as program id',
          async () => buildTransaction(receiver.walletAddress, [{ programAddress: address(sponsor), accounts: [], data: new Uint8Array([2, 0, 0, 0]) }, memo(receiver.walletAddress, 'x')]),
          'SPONSOR_AS_PROGRAM',
        ],
        [
          'a durable-nonce advance',
          async () =>
            buildTransaction(receiver.walletAddress, [getAdvanceNonceAccountInstruction({ nonceAccount: newAddress(), nonceAuthority: noop(receiver.walletAddress) }), transferSol(receiver.walletAddress, attacker, 1n)]),
          'DURABLE_NONCE',
        ],
        ['a compute-unit price over the cap', async () => buildTransaction(receiver.walletAddress, [computeUnitPrice(10_000_000_000n), memo(receiver.walletAddress, 'x')]), 'COMPUTE_UNIT_PRICE_TOO_HIGH'],
        ['a foreign required signer', async () => buildTransaction(receiver.walletAddress, [transferSol(newAddress(), attacker, SOL), memo(receiver.walletAddress, 'x')]), 'FOREIGN_SIGNER'],
        ['a foreign fee payer', async () => buildTransaction(attacker, [memo(receiver.walletAddress, 'x')]), 'FOREIGN_SIGNER'],
        ['an oversize message', async () => buildTransaction(receiver.walletAddress, [memo(receiver.walletAddress, 'x'.repeat(1050))]), 'TRANSACTION_TOO_LARGE'],
        ['a program outside the allow-list', async () => buildTransaction(receiver.walletAddress, [{ programAddress: address(attacker), accounts: [], data: new Uint8Array() }]), 'PROGRAM_NOT_ALLOWED'],
        ['nothing but Compute Budget', async () => buildTransaction(receiver.walletAddress, [computeUnitPrice(1n)]), 'NO_INSTRUCTIONS'],
        // The managed key only as the caller's fee payer: once the sponsor replaces it, nobody but the sponsor signs.
        ['no use of the managed key but as fee payer', async () => buildTransaction(receiver.walletAddress, [{ programAddress: MEMO_PROGRAM, accounts: [], data: new Uint8Array([1]) }]), 'MANAGED_KEY_NOT_SIGNER'],
        ['a transfer the managed wallet cannot pay (fails in simulation)', async () => buildTransaction(receiver.walletAddress, [transferSol(receiver.walletAddress, attacker, 1_000_000n * SOL)]), 'SIMULATION_FAILED'],
      ];

      it.each(cases)('%s', async (_name, build, reason) => {
        const before = await balance(sponsor);
        const body = expectErrorBody(await send(await build()), 422, 'TRANSACTION_REJECTED');
        expect(body.details?.reason, body.message).toBe(reason);
        expect(body.message.length).toBeGreaterThan(20);
        expect(await balance(sponsor)).toBe(before);
        expect(await balance(attacker)).toBe(0n);
        const audit = await ctx.database.db
          .selectFrom('wallet_sign_requests')
          .selectAll()
          .where('receiver_id', '=', receiver.id)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow();
        expect(audit).toMatchObject({ outcome: 'REJECTED', reason, operation: 'SIGN_AND_SEND', signature: null });
      });

      it('a simulation failure carries the simulation error', async () => {
        const body = expectErrorBody(await send(buildTransaction(receiver.walletAddress, [transferSol(receiver.walletAddress, attacker, 1_000_000n * SOL)])), 422, 'TRANSACTION_REJECTED');
        expect(body.details).toMatchObject({ reason: 'SIMULATION_FAILED', simulationError: expect.stringMatching(/\w/) });
      });
    });
  });
});
