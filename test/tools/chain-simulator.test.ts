/**
 * The chain simulator, spoken to only through @solana/kit's createSolanaRpc (the adapters'
 * client): a real transferChecked lands and moves processed → confirmed → finalized, its
 * getTransaction has the fee and token balances the chain charged, a blockhash expires after 150
 * blocks, a dropped transaction never appears, a duplicate lands once, 429/503/hang faults throw.
 * Most tests drive the clock by hand (a slot of an hour, `advanceSlots`) so they never race it.
 */
import {
  type Address,
  generateKeyPairSigner,
  isSolanaError,
  lamports,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR,
  SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED,
  SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND,
  type Signature,
} from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainSimulator, startChainSimulator, TOKEN_2022_PROGRAM } from '../../tools/chain-simulator/index.ts';
import { buildTransfer, type Rpc, simulatorRpc, statusOf } from '../helpers/chain-simulator.ts';

const SOL = 1_000_000_000n;
/** kit reads most numbers as bigint and a few as number: compare as plain numbers. */
const plain = (value: unknown) => JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))) as unknown;

describe('chain simulator (clock driven by hand)', () => {
  let sim: ChainSimulator;
  let rpc: Rpc;
  let mint: Address;

  beforeAll(async () => {
    sim = await startChainSimulator({ slotMs: 3_600_000, confirmedLag: 2, finalizedLag: 5 });
    rpc = simulatorRpc(sim.url);
    mint = (await sim.createMint()).mint as Address;
  });
  afterAll(() => sim.close());

  async function fundedPayer(tokens = 10_000_000n) {
    const payer = await generateKeyPairSigner();
    await rpc.requestAirdrop(payer.address, lamports(2n * SOL)).send();
    await sim.mintTo({ mint, owner: payer.address, amount: tokens });
    return payer;
  }

  it('funds a wallet: SOL by requestAirdrop, tokens in its associated account (jsonParsed)', async () => {
    const payer = await fundedPayer(5_000_000n);
    expect((await rpc.getBalance(payer.address, { commitment: 'processed' }).send()).value).toBe(2n * SOL);
    const { value } = await rpc.getTokenAccountsByOwner(payer.address, { mint }, { encoding: 'jsonParsed' }).send();
    expect(value).toHaveLength(1);
    expect(value[0]!.account.data.parsed.info).toMatchObject({ mint, owner: payer.address, state: 'initialized', tokenAmount: { amount: '5000000', decimals: 6, uiAmountString: '5' } });
    const mintInfo = await rpc.getAccountInfo(mint, { encoding: 'jsonParsed' }).send();
    expect(mintInfo.value?.data).toMatchObject({ program: 'spl-token', parsed: { type: 'mint', info: { decimals: 6, supply: expect.any(String) } } });
    const raw = await rpc.getAccountInfo(value[0]!.pubkey, { encoding: 'base64' }).send();
    expect(Buffer.from(raw.value!.data[0], 'base64')).toHaveLength(165);
  });

  it('a transferChecked lands at the next slot and goes processed → confirmed → finalized; getTransaction shows what the chain charged', async () => {
    const payer = await fundedPayer(5_000_000n);
    const receiver = (await generateKeyPairSigner()).address;
    const transfer = await buildTransfer(rpc, { payer, mint, to: receiver, amount: 1_500_000n, units: 60_000, microLamports: 1_000n });
    const solBefore = (await rpc.getBalance(payer.address, { commitment: 'processed' }).send()).value;

    expect(await rpc.sendTransaction(transfer.wire, { encoding: 'base64' }).send()).toBe(transfer.signature);
    expect(await statusOf(rpc, transfer.signature)).toBeNull();
    sim.advanceSlots(1);
    const seen = [(await statusOf(rpc, transfer.signature))!.confirmationStatus];
    sim.advanceSlots(2);
    seen.push((await statusOf(rpc, transfer.signature))!.confirmationStatus);
    sim.advanceSlots(3);
    const final = (await statusOf(rpc, transfer.signature))!;
    seen.push(final.confirmationStatus);
    expect(seen).toEqual(['processed', 'confirmed', 'finalized']);
    expect(final).toMatchObject({ err: null, confirmations: null, status: { Ok: null } });

    const tx = (await rpc.getTransaction(transfer.signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send())!;
    const rent = await rpc.getMinimumBalanceForRentExemption(165n).send();
    // 5 000 a signature plus ⌈1 000 µlamports × 60 000 units⌉ = 60.
    expect(tx.meta!.fee).toBe(5_060n);
    const solAfter = (await rpc.getBalance(payer.address).send()).value;
    expect(solBefore - solAfter).toBe(tx.meta!.fee + rent);
    expect(tx.meta!.preBalances[0]! - tx.meta!.postBalances[0]!).toBe(tx.meta!.fee + rent);
    expect(tx.meta!.err).toBeNull();
    expect(tx.meta!.computeUnitsConsumed).toBeGreaterThan(0n);
    expect(tx.meta!.logMessages).toContain('Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA invoke [1]');
    const keys = tx.transaction.message.accountKeys;
    const meta = tx.meta!;
    const tokenBalance = (list: typeof meta.preTokenBalances, account: string) => list!.find((b) => keys[b.accountIndex] === account)?.uiTokenAmount.amount;
    expect(tokenBalance(meta.preTokenBalances, transfer.source)).toBe('5000000');
    expect(tokenBalance(meta.postTokenBalances, transfer.source)).toBe('3500000');
    expect(tokenBalance(meta.preTokenBalances, transfer.destination)).toBeUndefined();
    expect(tokenBalance(meta.postTokenBalances, transfer.destination)).toBe('1500000');
    expect(meta.postTokenBalances!.find((b) => keys[b.accountIndex] === transfer.destination)).toMatchObject({ mint, owner: receiver, uiTokenAmount: { decimals: 6, uiAmountString: '1.5' } });
    expect(tx.version).toBe(0);
    expect(typeof tx.blockTime).toBe('bigint');

    const base64 = (await rpc.getTransaction(transfer.signature, { encoding: 'base64', maxSupportedTransactionVersion: 0 }).send())!;
    expect(base64.transaction[0]).toBe(transfer.wire);
    expect((await rpc.getTokenAccountBalance(transfer.destination).send()).value).toMatchObject({ amount: '1500000', decimals: 6, uiAmountString: '1.5' });
    const history = await rpc.getSignaturesForAddress(receiver).send();
    expect(history.map((entry) => entry.signature)).toEqual([transfer.signature]);
    expect(history[0]).toMatchObject({ err: null, confirmationStatus: 'finalized', slot: final.slot });
  });

  it('getSignaturesForAddress lists newest first and honours before, until and limit', async () => {
    const payer = await fundedPayer();
    const receiver = (await generateKeyPairSigner()).address;
    const signatures: string[] = [];
    for (let i = 0; i < 3; i++) {
      const transfer = await buildTransfer(rpc, { payer, mint, to: receiver, amount: BigInt(1000 + i) });
      await rpc.sendTransaction(transfer.wire, { encoding: 'base64' }).send();
      signatures.push(transfer.signature);
      sim.advanceSlots(1);
    }
    sim.advanceSlots(2);
    const list = async (config: Parameters<Rpc['getSignaturesForAddress']>[1]) =>
      (await rpc.getSignaturesForAddress(receiver, { commitment: 'confirmed', ...config }).send()).map((entry) => entry.signature);
    expect(await list({})).toEqual([...signatures].reverse());
    expect(await list({ limit: 1 })).toEqual([signatures[2]]);
    expect(await list({ before: signatures[2] as Signature })).toEqual([signatures[1], signatures[0]]);
    expect(await list({ until: signatures[0] as Signature })).toEqual([signatures[2], signatures[1]]);
    // Not finalized yet (kit's default commitment is confirmed; a node's is finalized).
    expect(await rpc.getSignaturesForAddress(receiver, { commitment: 'finalized' }).send()).toHaveLength(0);
  });

  it('preflight refuses a failing transaction with -32002 and the logs; simulateTransaction reports err and units', async () => {
    const payer = await fundedPayer(1_000n);
    const transfer = await buildTransfer(rpc, { payer, mint, to: (await generateKeyPairSigner()).address, amount: 2_000n });
    const simulated = await rpc.simulateTransaction(transfer.wire, { encoding: 'base64', sigVerify: true }).send();
    expect(plain(simulated.value.err)).toEqual({ InstructionError: [3, { Custom: 1 }] });
    expect(simulated.value.logs!.length).toBeGreaterThan(0);
    const error = await rpc.sendTransaction(transfer.wire, { encoding: 'base64' }).send().catch((e: unknown) => e);
    expect(isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)).toBe(true);
    expect((error as { context: { logs: string[] } }).context.logs.some((line) => line.includes('insufficient funds'))).toBe(true);

    const good = await buildTransfer(rpc, { payer, mint, to: (await generateKeyPairSigner()).address, amount: 10n });
    const ok = await rpc.simulateTransaction(good.wire, { encoding: 'base64', replaceRecentBlockhash: true }).send();
    expect(ok.value.err).toBeNull();
    expect(ok.value.unitsConsumed).toBeGreaterThan(0n);
    expect(ok.value.replacementBlockhash?.blockhash).toBe((await rpc.getLatestBlockhash({ commitment: 'processed' }).send()).value.blockhash);
  });

  it('the same transaction sent twice lands once; after it landed, preflight answers AlreadyProcessed', async () => {
    const payer = await fundedPayer(1_000_000n);
    const transfer = await buildTransfer(rpc, { payer, mint, to: (await generateKeyPairSigner()).address, amount: 400_000n });
    for (let i = 0; i < 3; i++) expect(await rpc.sendTransaction(transfer.wire, { encoding: 'base64', skipPreflight: true }).send()).toBe(transfer.signature);
    sim.advanceSlots(1);
    expect(await rpc.sendTransaction(transfer.wire, { encoding: 'base64', skipPreflight: true }).send()).toBe(transfer.signature);
    sim.advanceSlots(1);
    expect((await rpc.getTokenAccountBalance(transfer.source).send()).value.amount).toBe('600000');
    const again = await rpc.sendTransaction(transfer.wire, { encoding: 'base64' }).send().catch((e: unknown) => e);
    expect(isSolanaError(again, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)).toBe(true);
    expect(isSolanaError((again as Error).cause, SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED)).toBe(true);
  });

  it('a blockhash is valid for 150 blocks: lastValidBlockHeight = height + 150, then BlockhashNotFound or never lands', async () => {
    const payer = await fundedPayer();
    const issued = (await rpc.getLatestBlockhash({ commitment: 'processed' }).send()).value;
    const height = await rpc.getBlockHeight({ commitment: 'processed' }).send();
    expect(issued.lastValidBlockHeight).toBe(height + 150n);
    sim.advanceSlots(150);
    expect((await rpc.isBlockhashValid(issued.blockhash, { commitment: 'processed' }).send()).value).toBe(true);
    sim.advanceSlots(1);
    expect((await rpc.isBlockhashValid(issued.blockhash, { commitment: 'processed' }).send()).value).toBe(false);
    const transfer = await buildTransfer(rpc, { payer, mint, to: (await generateKeyPairSigner()).address, amount: 1n, blockhash: issued });
    const refused = await rpc.sendTransaction(transfer.wire, { encoding: 'base64' }).send().catch((e: unknown) => e);
    expect(isSolanaError(refused, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)).toBe(true);
    expect(isSolanaError((refused as Error).cause, SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND)).toBe(true);
    expect(await rpc.sendTransaction(transfer.wire, { encoding: 'base64', skipPreflight: true }).send()).toBe(transfer.signature);
    sim.advanceSlots(3);
    expect(await statusOf(rpc, transfer.signature)).toBeNull();
    expect(sim.state().transactions.expired).toBeGreaterThan(0);
  });

  it('a dropped transaction never lands (status null even with history); the same bytes sent again land', async () => {
    const payer = await fundedPayer();
    const transfer = await buildTransfer(rpc, { payer, mint, to: (await generateKeyPairSigner()).address, amount: 7n });
    await sim.setFaults({ dropNext: 1 });
    expect(await rpc.sendTransaction(transfer.wire, { encoding: 'base64' }).send()).toBe(transfer.signature);
    sim.advanceSlots(10);
    expect(await statusOf(rpc, transfer.signature)).toBeNull();
    expect(await rpc.getTransaction(transfer.signature, { commitment: 'confirmed', encoding: 'json', maxSupportedTransactionVersion: 0 }).send()).toBeNull();
    expect(sim.state().transactions.dropped).toBe(1);
    await rpc.sendTransaction(transfer.wire, { encoding: 'base64' }).send();
    sim.advanceSlots(1);
    expect(await statusOf(rpc, transfer.signature)).toMatchObject({ err: null, confirmationStatus: 'processed' });
  });

  it('503 and 429 for a count or a duration, and a node that hangs: kit throws', async () => {
    await sim.setFaults({ http: { status: 503, count: 2 } });
    for (let i = 0; i < 2; i++) {
      const error = await rpc.getSlot().send().catch((e: unknown) => e);
      expect(isSolanaError(error, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR) && error.context.statusCode).toBe(503);
    }
    expect(await rpc.getSlot().send()).toBeTypeOf('bigint');
    await sim.setFaults({ http: { status: 429, durationMs: 300 } });
    const limited = await rpc.getHealth().send().catch((e: unknown) => e);
    expect(isSolanaError(limited, SOLANA_ERROR__RPC__TRANSPORT_HTTP_ERROR) && limited.context.statusCode).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await rpc.getHealth().send()).toBe('ok');
    await sim.setFaults({ hangMs: 10_000 });
    const hung = await rpc.getSlot().send({ abortSignal: AbortSignal.timeout(200) }).catch((e: unknown) => e);
    expect((hung as Error).name).toMatch(/AbortError|TimeoutError/);
    await sim.reset();
    expect(await rpc.getSlot().send()).toBeTypeOf('bigint');
  });

  it('a Token-2022 mint works the same way (getTokenAccountsByOwner by programId)', async () => {
    const token2022 = (await sim.createMint({ program: 'token-2022', decimals: 2 })).mint as Address;
    const payer = await generateKeyPairSigner();
    await sim.airdrop(payer.address, SOL);
    await sim.mintTo({ mint: token2022, owner: payer.address, amount: 10_000n });
    const receiver = (await generateKeyPairSigner()).address;
    const tokenProgram = TOKEN_2022_PROGRAM as Address;
    const transfer = await buildTransfer(rpc, { payer, mint: token2022, to: receiver, amount: 250n, decimals: 2, tokenProgram });
    await rpc.sendTransaction(transfer.wire, { encoding: 'base64' }).send();
    sim.advanceSlots(1);
    expect(await statusOf(rpc, transfer.signature)).toMatchObject({ err: null });
    const owned = await rpc.getTokenAccountsByOwner(receiver, { programId: tokenProgram }, { encoding: 'jsonParsed' }).send();
    expect(owned.value[0]!.account.data.parsed.info.tokenAmount).toMatchObject({ amount: '250', uiAmountString: '2.5' });
  });
});

describe('chain simulator (its own clock)', () => {
  it('with 20 ms slots a transfer reaches finalized by itself; a finality stall holds it at confirmed', async () => {
    const sim = await startChainSimulator({ slotMs: 20, confirmedLag: 1, finalizedLag: 4 });
    try {
      const rpc = simulatorRpc(sim.url);
      const mint = (await sim.createMint()).mint as Address;
      const payer = await generateKeyPairSigner();
      await sim.airdrop(payer.address, SOL);
      await sim.mintTo({ mint, owner: payer.address, amount: 100n });
      // The stall runs from when the simulator took the fault (after `stalledFrom`); the transfer is
      // built and sent after it, which a loaded machine may take a while to do: each wait is timed
      // from its own start, so neither depends on how long the other took.
      const stalledFrom = Date.now();
      await sim.setFaults({ finalityDelayMs: 600 });
      const transfer = await buildTransfer(rpc, { payer, mint, to: (await generateKeyPairSigner()).address, amount: 1n });
      await rpc.sendTransaction(transfer.wire, { encoding: 'base64' }).send();
      const sent = Date.now();
      const reached = async (wanted: string) => {
        for (;;) {
          const status = await statusOf(rpc, transfer.signature);
          if (status?.confirmationStatus === wanted) return Date.now();
          if (Date.now() - sent > 10_000) throw new Error(`never ${wanted}`);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      };
      expect((await reached('confirmed')) - sent).toBeLessThan(500);
      expect((await reached('finalized')) - stalledFrom).toBeGreaterThanOrEqual(600);
      const slot = await rpc.getSlot({ commitment: 'processed' }).send();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await rpc.getSlot({ commitment: 'processed' }).send()).toBeGreaterThan(slot);
    } finally {
      await sim.close();
    }
  });
});
