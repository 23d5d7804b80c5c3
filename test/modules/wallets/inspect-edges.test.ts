/**
 * The edges of the sponsoring rules that mutation testing found untested (issue 24, item 8):
 * the managed wallet must be a SIGNER, not merely an account of the message, and the
 * instruction limit (WALLET_MAX_INSTRUCTIONS, 12 by default) is inclusive.
 */
import { AccountRole, address, type Instruction } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ALLOWED_PROGRAMS } from '../../../src/config.ts';
import { checkManagedSigner, checkPrograms, inspectForSponsoring } from '../../../src/modules/wallets/inspect.ts';
import type { InstructionView, MessageView } from '../../../src/modules/wallets/message.ts';
import { expectErrorBody } from '../../helpers/app.ts';
import { type WalletsFixture, createWalletsFixture } from './fixture.ts';
import { buildTransaction, MEMO_PROGRAM, memo, newAddress, SYSTEM_PROGRAM } from './helpers.ts';

const managed = newAddress() as string;
const sponsor = newAddress() as string;
const settings = { allowedPrograms: DEFAULT_ALLOWED_PROGRAMS, maxComputeUnitPrice: 1_000_000, maxComputeUnitLimit: 400_000, maxFeeLamports: 500_000, maxInstructions: 12 };
const memoIx = (accounts: string[]): InstructionView => ({ programAddress: MEMO_PROGRAM, accounts, accountIndices: [], data: new TextEncoder().encode('hi') });

describe('the managed wallet must sign (pure)', () => {
  // The sponsor is the only signer; the managed wallet is a read-only account of the memo.
  const listedOnly: MessageView = {
    version: 0,
    numSigners: 1,
    numReadonlySigners: 0,
    numReadonlyNonSigners: 2,
    staticAccounts: [sponsor, managed, MEMO_PROGRAM],
    lookupTableCount: 0,
    instructions: [memoIx([managed])],
  };

  it('a managed wallet among the non-signer accounts is refused MANAGED_KEY_NOT_SIGNER', () => {
    expect(checkManagedSigner(listedOnly, managed)).toMatchObject({ reason: 'MANAGED_KEY_NOT_SIGNER', details: { managedAddress: managed } });
    expect(inspectForSponsoring(listedOnly, { managed, sponsor, settings })).toMatchObject({ reason: 'MANAGED_KEY_NOT_SIGNER' });
  });

  it('the same message with the managed wallet as a signer passes', () => {
    const signing = { ...listedOnly, numSigners: 2, numReadonlySigners: 1, numReadonlyNonSigners: 1 };
    expect(checkManagedSigner(signing, managed)).toBeNull();
    expect(inspectForSponsoring(signing, { managed, sponsor, settings })).toEqual({ unitPrice: 0n, unitLimit: undefined });
  });
});

describe('the instruction limit is inclusive (pure)', () => {
  const withInstructions = (count: number): MessageView => ({
    version: 0,
    numSigners: 1,
    numReadonlySigners: 0,
    numReadonlyNonSigners: 1,
    staticAccounts: [managed, SYSTEM_PROGRAM],
    lookupTableCount: 0,
    instructions: Array.from({ length: count }, () => memoIx([managed])),
  });

  it.each([1, 11, 12])('%i instructions are accepted', (count) => {
    expect(checkPrograms(withInstructions(count), settings)).toBeNull();
  });

  it('13 instructions are refused, naming the count and the limit', () => {
    expect(checkPrograms(withInstructions(13), settings)).toMatchObject({ reason: 'TOO_MANY_INSTRUCTIONS', details: { instructions: 13, max: 12 } });
  });

  it('a configured limit is inclusive too', () => {
    expect(checkPrograms(withInstructions(3), { ...settings, maxInstructions: 3 })).toBeNull();
    expect(checkPrograms(withInstructions(4), { ...settings, maxInstructions: 3 })).toMatchObject({ reason: 'TOO_MANY_INSTRUCTIONS' });
  });
});

describe('through the routes', () => {
  let fixture: WalletsFixture;
  beforeAll(async () => {
    fixture = await createWalletsFixture();
  });
  afterAll(() => fixture.ctx.close());

  it('a transaction naming the managed wallet only as a non-signer is refused by sign and by sign-and-send', async () => {
    const wallet = fixture.receiver.walletAddress;
    const payer = newAddress();
    const readOnly: Instruction = { programAddress: MEMO_PROGRAM, accounts: [{ address: address(wallet), role: AccountRole.READONLY }], data: new TextEncoder().encode('not yours') };
    const tx = buildTransaction(payer, [memo(payer, 'mine'), readOnly]);
    expect(expectErrorBody(await fixture.sign(tx), 422, 'TRANSACTION_REJECTED').details).toMatchObject({ reason: 'MANAGED_KEY_NOT_SIGNER' });
    // With the sponsor as the only signer, nothing else (no foreign signer) refuses it first.
    const sponsorOnly = buildTransaction(fixture.sponsor, [readOnly]);
    expect(expectErrorBody(await fixture.send(sponsorOnly), 422, 'TRANSACTION_REJECTED').details).toMatchObject({ reason: 'MANAGED_KEY_NOT_SIGNER' });
  });

  it('the default limit: 12 memo instructions are signed and sent, 13 are refused', async () => {
    const wallet = fixture.receiver.walletAddress;
    const memos = (count: number) => Array.from({ length: count }, (_, i) => memo(wallet, `m${i}`));
    const twelve = await fixture.send(buildTransaction(wallet, memos(12)));
    expect(twelve.statusCode, twelve.body).toBe(200);
    expect(twelve.json().hash).toEqual(expect.any(String));
    const thirteen = expectErrorBody(await fixture.send(buildTransaction(wallet, memos(13))), 422, 'TRANSACTION_REJECTED');
    expect(thirteen.details).toMatchObject({ reason: 'TOO_MANY_INSTRUCTIONS', instructions: 13, max: 12 });
  });
});
