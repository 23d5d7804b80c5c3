/**
 * getTransaction's answer in a node's shapes: `encoding` json (the message with base58
 * instruction data), jsonParsed (account keys with their flags, instructions partially decoded:
 * programId, accounts, data), base64 or base58 (the wire bytes); the meta with fee, balances,
 * token balances, logs, inner instructions and compute units. A version 0 transaction needs
 * `maxSupportedTransactionVersion: 0`, as on a node.
 */
import { encodeBase58 } from '../../src/lib/base58.ts';
import type { InnerInstructions, Landed } from './chain.ts';
import { invalidParams, RpcError, UNSUPPORTED_TRANSACTION_VERSION } from './jsonrpc.ts';
import type { DecodedTransaction, WireInstruction } from './wire.ts';

type Encoding = 'json' | 'jsonParsed' | 'base64' | 'base58';

function encodingOf(value: unknown): Encoding {
  if (value === undefined) return 'json';
  if (value === 'json' || value === 'jsonParsed' || value === 'base64' || value === 'base58') return value;
  throw invalidParams(`Invalid params: unsupported encoding ${String(value)}`);
}

function instructionJson(ix: WireInstruction & { stackHeight?: number | null }, keys: readonly string[], parsed: boolean) {
  const data = encodeBase58(ix.data);
  const stackHeight = ix.stackHeight ?? null;
  if (parsed) return { programId: keys[ix.programIdIndex], accounts: ix.accounts.map((i) => keys[i]), data, stackHeight };
  return { programIdIndex: ix.programIdIndex, accounts: ix.accounts, data, stackHeight };
}

function innerJson(inner: InnerInstructions[], keys: readonly string[], parsed: boolean) {
  return inner.map((entry) => ({ index: entry.index, instructions: entry.instructions.map((ix) => instructionJson(ix, keys, parsed)) }));
}

function messageJson(tx: DecodedTransaction, loaded: Landed['loaded'], parsed: boolean) {
  const keys = [...(tx.accountKeys as readonly string[]), ...loaded.writable, ...loaded.readonly];
  // Parsed, a node lists the accounts loaded from lookup tables too; otherwise only the static keys.
  const accountKeys = parsed
    ? [
        ...tx.accountKeys.map((pubkey, i) => ({ pubkey, signer: i < tx.header.numRequiredSignatures, source: 'transaction', writable: tx.writable[i] ?? false })),
        ...loaded.writable.map((pubkey) => ({ pubkey, signer: false, source: 'lookupTable', writable: true })),
        ...loaded.readonly.map((pubkey) => ({ pubkey, signer: false, source: 'lookupTable', writable: false })),
      ]
    : tx.accountKeys;
  return {
    accountKeys,
    header: tx.header,
    instructions: tx.instructions.map((ix) => instructionJson(ix, keys, parsed)),
    recentBlockhash: tx.blockhash,
    ...(tx.version === 0 ? { addressTableLookups: tx.addressTableLookups } : {}),
  };
}

export function transactionAnswer(entry: Landed, tx: DecodedTransaction, cfg: Record<string, unknown>) {
  const encoding = encodingOf(cfg.encoding);
  const maxVersion = cfg.maxSupportedTransactionVersion;
  if (tx.version === 0 && maxVersion === undefined) {
    throw new RpcError(
      UNSUPPORTED_TRANSACTION_VERSION,
      'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
    );
  }
  const parsed = encoding === 'jsonParsed';
  const transaction =
    encoding === 'base64'
      ? [Buffer.from(tx.wire).toString('base64'), 'base64']
      : encoding === 'base58'
        ? [encodeBase58(tx.wire), 'base58']
        : { signatures: tx.signatures, message: messageJson(tx, entry.loaded, parsed) };
  const meta = {
    err: entry.err,
    status: entry.err === null ? { Ok: null } : { Err: entry.err },
    fee: entry.fee,
    preBalances: entry.preBalances,
    postBalances: entry.postBalances,
    innerInstructions: innerJson(entry.innerInstructions, entry.keys, parsed),
    logMessages: entry.logs,
    preTokenBalances: entry.preTokenBalances,
    postTokenBalances: entry.postTokenBalances,
    rewards: [],
    loadedAddresses: entry.loaded,
    computeUnitsConsumed: entry.unitsConsumed,
  };
  return {
    slot: entry.slot,
    blockTime: entry.blockTime,
    transaction,
    meta,
    ...(maxVersion === undefined ? {} : { version: tx.version }),
  };
}
