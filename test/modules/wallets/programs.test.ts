/**
 * Issue 15: the allow-list accepts exactly the programs the current @solana-program/* clients
 * target by default. Each row builds an instruction with the client an integrator would use,
 * checks its program id against the default allow-list and runs the sponsoring rules on it.
 * Token-2022's client (@solana-program/token-2022 0.15) requires @solana/kit 7, so its row uses
 * the id read from that package (TOKEN_2022_PROGRAM_ADDRESS) with the SPL Token client.
 */
import { type Address, address, type Instruction } from '@solana/kit';
import { COMPUTE_BUDGET_PROGRAM_ADDRESS, getSetComputeUnitLimitInstruction, getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import { getAddMemoInstruction, LEGACY_MEMO_PROGRAM_ADDRESS_V1, LEGACY_MEMO_PROGRAM_ADDRESS_V3, MEMO_PROGRAM_ADDRESS, SUPPORTED_MEMO_PROGRAM_ADDRESSES } from '@solana-program/memo';
import { getTransferSolInstruction, SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import { ASSOCIATED_TOKEN_PROGRAM_ADDRESS, getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ALLOWED_PROGRAMS } from '../../../src/config.ts';
import { inspectForSponsoring, isRejection } from '../../../src/modules/wallets/inspect.ts';
import { describeInstruction } from '../../../src/modules/wallets/instructions.ts';
import { decodeBase64, decodeTransaction } from '../../../src/modules/wallets/transaction.ts';
import { buildTransaction, newAddress, noop } from './helpers.ts';
import { type WalletsFixture, createWalletsFixture } from './fixture.ts';

/** @solana-program/token-2022 0.15.0's TOKEN_2022_PROGRAM_ADDRESS (read from the package; not installable beside @solana/kit 8). */
const TOKEN_2022_PROGRAM_ADDRESS = address('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');

const managed = newAddress();
const sponsor = newAddress();
const settings = { allowedPrograms: DEFAULT_ALLOWED_PROGRAMS, maxComputeUnitPrice: 1_000_000, maxComputeUnitLimit: 400_000, maxFeeLamports: 500_000, maxInstructions: 12 };
const wallet = noop(managed);
const memoBy = (text: string, programAddress?: Address) => getAddMemoInstruction({ memo: text, signers: [wallet] }, programAddress ? { programAddress } : undefined);
const transferChecked = (programAddress?: Address) =>
  getTransferCheckedInstruction({ source: newAddress(), mint: newAddress(), destination: newAddress(), authority: wallet, amount: 1_000_000n, decimals: 6 }, programAddress ? { programAddress } : undefined);

/** [client, the program id it targets by default, a transaction built with it, the name our messages give it] */
const CLIENTS: Array<[string, Address, Instruction[], string]> = [
  ['@solana-program/system getTransferSolInstruction', SYSTEM_PROGRAM_ADDRESS, [getTransferSolInstruction({ source: wallet, destination: newAddress(), amount: 1n })], 'System Transfer'],
  [
    '@solana-program/compute-budget SetComputeUnitLimit + SetComputeUnitPrice',
    COMPUTE_BUDGET_PROGRAM_ADDRESS,
    [getSetComputeUnitLimitInstruction({ units: 50_000 }), getSetComputeUnitPriceInstruction({ microLamports: 1_000n }), memoBy('budget')],
    'Compute Budget',
  ],
  ['@solana-program/token getTransferCheckedInstruction', TOKEN_PROGRAM_ADDRESS, [transferChecked()], 'SPL Token TransferChecked'],
  [
    '@solana-program/token getCreateAssociatedTokenIdempotentInstruction',
    ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
    [getCreateAssociatedTokenIdempotentInstruction({ payer: wallet, ata: newAddress(), owner: newAddress(), mint: newAddress() })],
    'Associated Token Account CreateIdempotent',
  ],
  ['Token-2022 (id of @solana-program/token-2022) TransferChecked', TOKEN_2022_PROGRAM_ADDRESS, [transferChecked(TOKEN_2022_PROGRAM_ADDRESS)], 'Token-2022 TransferChecked'],
  ['@solana-program/memo getAddMemoInstruction (its default program)', MEMO_PROGRAM_ADDRESS, [memoBy('default')], 'Memo'],
  ['@solana-program/memo LEGACY_MEMO_PROGRAM_ADDRESS_V3', LEGACY_MEMO_PROGRAM_ADDRESS_V3, [memoBy('v3', LEGACY_MEMO_PROGRAM_ADDRESS_V3)], 'Memo'],
  ['@solana-program/memo LEGACY_MEMO_PROGRAM_ADDRESS_V1', LEGACY_MEMO_PROGRAM_ADDRESS_V1, [memoBy('v1', LEGACY_MEMO_PROGRAM_ADDRESS_V1)], 'Memo (v1)'],
];

describe('the allow-list and the current @solana-program/* clients', () => {
  it('the default allow-list is exactly the clients’ default program ids and the Memo client’s supported ids', () => {
    const expected = new Set<string>([SYSTEM_PROGRAM_ADDRESS, COMPUTE_BUDGET_PROGRAM_ADDRESS, TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS, ASSOCIATED_TOKEN_PROGRAM_ADDRESS, ...SUPPORTED_MEMO_PROGRAM_ADDRESSES]);
    expect(new Set(DEFAULT_ALLOWED_PROGRAMS)).toEqual(expected);
    expect(DEFAULT_ALLOWED_PROGRAMS).toHaveLength(expected.size);
  });

  it.each(CLIENTS)('%s: its program is allowed and the transaction passes the sponsoring rules', (_client, program, instructions, name) => {
    expect(instructions.some((ix) => ix.programAddress === program)).toBe(true);
    expect(DEFAULT_ALLOWED_PROGRAMS).toContain(program);
    const { view } = decodeTransaction(decodeBase64(buildTransaction(sponsor, instructions)));
    const inspected = inspectForSponsoring(view, { managed, sponsor, settings });
    expect(isRejection(inspected) ? inspected : 'accepted').toBe('accepted');
    expect(describeInstruction(view.instructions.find((ix) => ix.programAddress === program)!)).toBe(name);
  });
});

describe('sign-and-send with the Memo client, on the sandbox chain', () => {
  let f: WalletsFixture;

  beforeAll(async () => {
    f = await createWalletsFixture();
  });
  afterAll(() => f.ctx.close());

  const sendMemo = (programAddress?: Address) =>
    f.send(buildTransaction(f.sponsor, [getAddMemoInstruction({ memo: `memo ${programAddress ?? 'default'}`, signers: [noop(f.receiver.walletAddress)] }, programAddress ? { programAddress } : undefined)]));

  it.each([LEGACY_MEMO_PROGRAM_ADDRESS_V3, LEGACY_MEMO_PROGRAM_ADDRESS_V1])('the classic Memo program %s executes; the sponsor pays exactly the fee', async (program) => {
    const before = await f.balance(f.sponsor);
    const response = await sendMemo(program);
    expect(response.statusCode, response.body).toBe(200);
    expect(before - (await f.balance(f.sponsor))).toBe(10_000n);
  });

  it("the client's default Memo program is accepted and executes in the sandbox", async () => {
    const before = await f.balance(f.sponsor);
    const response = await sendMemo();
    expect(response.statusCode, response.body).toBe(200);
    expect(before - (await f.balance(f.sponsor))).toBe(10_000n);
  });
});
