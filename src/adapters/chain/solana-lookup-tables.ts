/**
 * The treasury's address lookup tables on a Solana node (decision 0056, lookup-tables-port.ts).
 * One transaction, version 0, the treasury paying and signing (never the sponsor):
 *
 *   [CreateLookupTable  for the node's confirmed slot, when no table is given]
 *   ExtendLookupTable   the addresses, in the order given
 *
 * Sending and status are the PAYIN transfers' (solana-prepared.ts) at `finalized`. Every failure
 * to talk to the node is ChainUnavailableError naming the method (solana-mints.ts `call`).
 */
import {
  type Address,
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  createTransactionMessage,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  pipe,
  type SignatureBytes,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit';
import type { LookupTableChain } from './lookup-tables-port.ts';
import { createLookupTable, extendLookupTable, LOOKUP_TABLE_PROGRAM, parseLookupTable } from './lookup-tables.ts';
import { call, RPC_TIMEOUT_MS } from './solana-mints.ts';
import { createPreparedTransactions } from './solana-prepared.ts';
import type { TreasurySigner } from './solana-transfers.ts';
import { createRpcClient } from './solana-rpc-client.ts';

const base58 = getBase58Decoder();

export function createSolanaLookupTables(deps: { settings: { rpcUrl: string; rpcTimeoutMs?: number }; treasury: TreasurySigner }): LookupTableChain {
  const { settings, treasury } = deps;
  const rpc = createRpcClient(settings.rpcUrl);
  const authority = address(treasury.address);
  const rpcCall = <T>(method: string, run: (abortSignal: AbortSignal) => Promise<T>) => call(method, settings.rpcTimeoutMs ?? RPC_TIMEOUT_MS, run);
  const transactions = createPreparedTransactions({ rpc, rpcCall, commitment: 'finalized', feePayer: authority });

  return {
    authority,

    async prepareExtension(table, addresses) {
      const [{ value: lifetime }, created] = await Promise.all([
        rpcCall('getLatestBlockhash', (abortSignal) => rpc.getLatestBlockhash({ commitment: 'confirmed' }).send({ abortSignal })),
        // A table is made for a recent slot (the program finds it in SlotHashes).
        table ? undefined : rpcCall('getSlot', (abortSignal) => rpc.getSlot({ commitment: 'confirmed' }).send({ abortSignal })).then((slot) => createLookupTable(authority, slot)),
      ]);
      const target = (table as Address | undefined) ?? created!.table;
      const instructions = [...(created ? [created.instruction] : []), extendLookupTable(target, authority, addresses.map((a) => address(a)))];
      const compiled = compileTransaction(
        pipe(
          createTransactionMessage({ version: 0 }),
          (m) => setTransactionMessageFeePayer(authority, m),
          (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
          (m) => appendTransactionMessageInstructions(instructions, m),
        ),
      );
      const signature = treasury.sign(new Uint8Array(compiled.messageBytes)) as SignatureBytes;
      const signed = { ...compiled, signatures: { ...compiled.signatures, [authority]: signature } };
      return { table: target, txHash: base58.decode(signature), wire: getBase64EncodedWireTransaction(signed), lastValidBlockHeight: lifetime.lastValidBlockHeight.toString() };
    },

    sendExtension: transactions.send,
    getExtensionStatus: transactions.status,

    async tableAddresses(table) {
      const { value } = await rpcCall('getAccountInfo', (abortSignal) => rpc.getAccountInfo(address(table), { commitment: 'finalized', encoding: 'base64' }).send({ abortSignal }));
      if (!value || value.owner !== LOOKUP_TABLE_PROGRAM) return undefined;
      return parseLookupTable(Buffer.from(value.data[0], 'base64'))?.addresses;
    },
  };
}
