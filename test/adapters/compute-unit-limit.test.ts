/**
 * A compiled transaction's compute-unit limit changed in its bytes
 * (src/adapters/chain/compute-unit-limit.ts) is, byte for byte, what @solana/kit compiles with
 * that limit, for any mix of a batch's instructions (token accounts created or not, a priority fee
 * or not, accounts from lookup tables or not, enough accounts for a two-byte count); a message
 * that does not start with SetComputeUnitLimit is left to the caller to compile.
 */
import { type Blockhash, compileTransaction, createNoopSigner, type Instruction } from '@solana/kit';
import { getSetComputeUnitLimitInstruction, getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import { getAddMemoInstruction } from '@solana-program/memo';
import { getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction } from '@solana-program/token';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withComputeUnitLimit } from '../../src/adapters/chain/compute-unit-limit.ts';
import { batchMessage, randomAddress } from '../helpers/batch-messages.ts';

describe('a compute-unit limit changed in the compiled bytes', () => {
  const payer = randomAddress();
  const signer = createNoopSigner(payer);
  const mint = randomAddress();
  const source = randomAddress();
  const receivers = Array.from({ length: 70 }, () => ({ owner: randomAddress(), ata: randomAddress() }));
  const table = randomAddress();
  const blockhash = randomAddress() as string as Blockhash;

  const compiled = (units: number | undefined, transfers: Array<{ receiver: number; create: boolean }>, priced: boolean, tabled: number[]) => {
    const instructions: Instruction[] = [
      ...(units === undefined ? [] : [getSetComputeUnitLimitInstruction({ units })]),
      ...(priced ? [getSetComputeUnitPriceInstruction({ microLamports: 1_000n })] : []),
    ];
    for (const t of transfers) {
      const { owner, ata } = receivers[t.receiver]!;
      if (t.create) instructions.push(getCreateAssociatedTokenIdempotentInstruction({ payer: signer, ata, owner, mint }));
      instructions.push(getTransferCheckedInstruction({ source, mint, destination: ata, authority: signer, amount: 1n, decimals: 6 }));
    }
    instructions.push(getAddMemoInstruction({ memo: 'orders' }));
    return compileTransaction(batchMessage(payer, blockhash, instructions, { [table]: tabled.map((r) => receivers[r]!.ata) })).messageBytes;
  };

  const transfers = fc.array(fc.record({ receiver: fc.integer({ min: 0, max: receivers.length - 1 }), create: fc.boolean() }), { minLength: 1, maxLength: 70 });
  const units = fc.integer({ min: 0, max: 2 ** 32 - 1 });

  it('equals what kit compiles with the new limit', () => {
    fc.assert(
      fc.property(transfers, fc.boolean(), fc.array(fc.integer({ min: 0, max: receivers.length - 1 }), { maxLength: 10 }), units, units, (mix, priced, tabled, before, after) => {
        const patched = withComputeUnitLimit(compiled(before, mix, priced, tabled), after);
        expect(patched).toEqual(new Uint8Array(compiled(after, mix, priced, tabled)));
      }),
      { numRuns: 100 },
    );
  });

  it('answers undefined for a message whose first instruction is not SetComputeUnitLimit', () => {
    expect(withComputeUnitLimit(compiled(undefined, [{ receiver: 0, create: false }], true, []), 5_000)).toBeUndefined();
    expect(withComputeUnitLimit(compiled(undefined, [{ receiver: 0, create: true }], false, []), 5_000)).toBeUndefined();
  });
});
