/**
 * A chain that keeps the port's promises (src/adapters/chain/port.ts) in memory, with the faults
 * the exactly-once rules are about: sends that never land (dropped), a node that answers 503 for a
 * while, block heights that pass a transaction's last valid one, a transfer refused before
 * signing. It counts every transaction that lands, so a test can say "exactly one".
 */
import { randomBytes } from 'node:crypto';
import { getBase58Decoder } from '@solana/kit';
import { type ChainAdapter, ChainTransferRefusedError, type PreparedTransfer, type TransferIntent, type TransferState } from '../../../src/adapters/chain/port.ts';
import { ChainUnavailableError } from '../../../src/adapters/chain/transactions-port.ts';

/** Blocks a blockhash stays valid (Solana: 150). */
const VALID_FOR = 150n;
/** What a landed transfer costs the treasury: the base fee of one signature, and a token account's rent. */
export const FAKE_FEE_LAMPORTS = 5000n;
export const FAKE_RENT_LAMPORTS = 2_039_280n;

interface Landed {
  intent: TransferIntent;
  txHash: string;
  rentLamports: bigint;
}

export function createFakeChain() {
  const base58 = getBase58Decoder();
  const prepared = new Map<string, { intent: TransferIntent; lastValidBlockHeight: bigint }>();
  const landed = new Map<string, Landed>();
  const accounts = new Set<string>();
  /** refuse: prepareTransfer throws ChainTransferRefusedError with this message (a mint that does not exist, say). */
  const faults: { dropSends: number; unavailableCalls: number; refuse?: string | undefined } = { dropSends: 0, unavailableCalls: 0 };
  const counts = { prepares: 0, sends: 0 };
  let height = 1000n;

  const rpc = (method: string) => {
    if (faults.unavailableCalls > 0) {
      faults.unavailableCalls--;
      throw new ChainUnavailableError(`Solana RPC ${method} failed: HTTP error (503): Service Unavailable`);
    }
  };

  const adapter: ChainAdapter = {
    chain: 'solana',
    createDepositAddress: () => Promise.reject(new Error('not on the fake chain')),

    async prepareTransfer(intent) {
      rpc('getLatestBlockhash');
      if (faults.refuse) throw new ChainTransferRefusedError(faults.refuse);
      counts.prepares++;
      const txHash = base58.decode(randomBytes(64));
      const lastValidBlockHeight = height + VALID_FOR;
      prepared.set(txHash, { intent, lastValidBlockHeight });
      return { txHash, wire: Buffer.from(txHash).toString('base64'), lastValidBlockHeight: lastValidBlockHeight.toString() };
    },

    async sendTransfer(tx: PreparedTransfer) {
      rpc('sendTransaction');
      counts.sends++;
      const known = prepared.get(tx.txHash);
      if (!known || Buffer.from(tx.wire, 'base64').toString() !== tx.txHash) throw new Error('the fake chain never signed these bytes');
      if (faults.dropSends > 0) {
        faults.dropSends--;
        return;
      }
      // Past its last valid block height a transaction is refused (BlockhashNotFound); landed, it executes once.
      if (height > known.lastValidBlockHeight || landed.has(tx.txHash)) return;
      const ata = `${known.intent.destination}:${known.intent.token}`;
      landed.set(tx.txHash, { intent: known.intent, txHash: tx.txHash, rentLamports: accounts.has(ata) ? 0n : FAKE_RENT_LAMPORTS });
      accounts.add(ata);
    },

    async getTransferStatus(tx: PreparedTransfer): Promise<TransferState> {
      rpc('getSignatureStatuses');
      const done = landed.get(tx.txHash);
      if (done) return { status: 'CONFIRMED', costs: { feeLamports: FAKE_FEE_LAMPORTS.toString(), rentLamports: done.rentLamports.toString() } };
      return height > BigInt(tx.lastValidBlockHeight) ? { status: 'EXPIRED' } : { status: 'PENDING' };
    },
  };

  return {
    adapter,
    faults,
    counts,
    /** Every transfer that landed for a reference (an order). */
    landedFor: (reference: string) => [...landed.values()].filter((entry) => entry.intent.reference === reference),
    advanceBlocks: (blocks: bigint) => {
      height += blocks;
    },
  };
}
