/**
 * Transactions: simulateTransaction, sendTransaction (preflight refusal -32002 with the
 * simulation as data, like a node), getSignatureStatuses, getSignaturesForAddress,
 * getTransaction, getFeeForMessage, requestAirdrop.
 */
import { decodeBase58 } from '../../src/lib/base58.ts';
import type { AccountConfig } from './accounts.ts';
import type { Chain, Simulation } from './chain.ts';
import {
  type Handler,
  invalidParams,
  RpcError,
  SEND_TRANSACTION_PREFLIGHT_FAILURE,
  TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
} from './jsonrpc.ts';
import { arrayParam, commitmentOf, config, contextSlot, historyCommitment, numberParam, stringParam, withContext } from './params.ts';
import { transactionAnswer } from './transaction-shape.ts';
import { errorText } from './vm.ts';
import { decodeMessage, decodeWire, type DecodedTransaction, feeOf } from './wire.ts';

function bytesOf(text: string, encoding: unknown): Uint8Array {
  if (encoding === undefined || encoding === 'base58') return decodeBase58(text);
  if (encoding === 'base64') return new Uint8Array(Buffer.from(text, 'base64'));
  throw invalidParams(`Invalid params: unsupported encoding: ${String(encoding)}. Supported encodings: base58, base64`);
}

function transactionParam(params: unknown[], cfg: Record<string, unknown>): DecodedTransaction {
  const text = stringParam(params, 0, 'an encoded transaction');
  try {
    return decodeWire(bytesOf(text, cfg.encoding));
  } catch (error) {
    if (error instanceof RpcError) throw error;
    throw invalidParams(`failed to deserialize solana_transaction::versioned::VersionedTransaction: ${(error as Error).message}`);
  }
}

const innerJson = (inner: Simulation['innerInstructions']) =>
  inner.map((entry) => ({
    index: entry.index,
    instructions: entry.instructions.map((ix) => ({ programIdIndex: ix.programIdIndex, accounts: ix.accounts, data: Buffer.from(ix.data).toString('base64'), stackHeight: ix.stackHeight })),
  }));

/** A node's RpcSimulateTransactionResult. */
function simulationValue(simulation: Simulation, extra: { accounts?: unknown; innerInstructions?: boolean; replacementBlockhash?: unknown } = {}) {
  return {
    err: simulation.err,
    logs: simulation.logs,
    accounts: extra.accounts ?? null,
    unitsConsumed: simulation.unitsConsumed,
    returnData: null,
    innerInstructions: extra.innerInstructions ? innerJson(simulation.innerInstructions) : null,
    replacementBlockhash: extra.replacementBlockhash ?? null,
  };
}

export function transactionMethods(chain: Chain): Record<string, Handler> {
  return {
    simulateTransaction(params) {
      const cfg = config(params, 1);
      const tx = transactionParam(params, cfg);
      const slot = contextSlot(chain, cfg);
      const replace = cfg.replaceRecentBlockhash === true;
      const sigVerify = cfg.sigVerify === true;
      if (replace && sigVerify) throw invalidParams('sigVerify may not be used with replaceRecentBlockhash');
      const simulation = chain.simulate(tx, { sigVerify, checkBlockhash: !replace });
      if (sigVerify && simulation.err === 'SignatureFailure') throw new RpcError(TRANSACTION_SIGNATURE_VERIFICATION_FAILURE, 'Transaction signature verification failure');
      const wanted = cfg.accounts as { addresses?: unknown; encoding?: AccountConfig['encoding'] } | undefined;
      let accountsValue: unknown;
      if (wanted && Array.isArray(wanted.addresses)) {
        accountsValue = wanted.addresses.map((address) => {
          const account = simulation.postAccounts.get(String(address)) ?? chain.accounts.read(String(address));
          return account ? chain.accounts.encode(account, { encoding: wanted.encoding ?? 'base64' }) : null;
        });
      }
      const latest = chain.latestBlockhash('processed');
      return withContext(
        slot,
        simulationValue(simulation, { accounts: accountsValue, innerInstructions: cfg.innerInstructions === true, replacementBlockhash: replace ? latest : undefined }),
      );
    },

    sendTransaction(params) {
      const cfg = config(params, 1);
      const tx = transactionParam(params, cfg);
      if (cfg.skipPreflight !== true) {
        commitmentOf({ commitment: cfg.preflightCommitment }); // an unknown one is refused, as a node does
        const simulation = chain.simulate(tx, { sigVerify: true, checkBlockhash: true });
        if (simulation.err === 'SignatureFailure') throw new RpcError(TRANSACTION_SIGNATURE_VERIFICATION_FAILURE, 'Transaction signature verification failure');
        if (simulation.err !== null) {
          throw new RpcError(SEND_TRANSACTION_PREFLIGHT_FAILURE, `Transaction simulation failed: ${errorText(simulation.err)}`, simulationValue(simulation));
        }
      }
      chain.enqueue(tx);
      return tx.signature;
    },

    getSignatureStatuses(params) {
      const signatures = arrayParam(params, 0, 'an array of signatures', 256);
      const cfg = config(params, 1);
      const history = cfg.searchTransactionHistory === true;
      return withContext(
        chain.slot,
        signatures.map((signature) => (typeof signature === 'string' ? chain.signatureStatus(signature, history) : null)),
      );
    },

    getSignaturesForAddress(params) {
      const address = stringParam(params, 0, 'a base58 address');
      const cfg = config(params, 1);
      const limit = cfg.limit === undefined ? 1000 : Number(cfg.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw invalidParams('Invalid limit; max 1000');
      let list = chain.history(address, historyCommitment(cfg));
      if (typeof cfg.before === 'string') {
        const at = list.findIndex((item) => item.entry.signature === cfg.before);
        list = at < 0 ? [] : list.slice(at + 1);
      }
      if (typeof cfg.until === 'string') {
        const at = list.findIndex((item) => item.entry.signature === cfg.until);
        if (at >= 0) list = list.slice(0, at);
      }
      return list.slice(0, limit).map(({ entry, status }) => ({
        signature: entry.signature,
        slot: entry.slot,
        err: entry.err,
        memo: entry.memo,
        blockTime: entry.blockTime,
        confirmationStatus: status.confirmationStatus,
      }));
    },

    getTransaction(params) {
      const signature = stringParam(params, 0, 'a signature');
      const cfg = typeof params[1] === 'string' ? { encoding: params[1] } : config(params, 1);
      const entry = chain.transaction(signature, historyCommitment(cfg));
      if (!entry || !entry.tx) return null;
      return transactionAnswer(entry, entry.tx, cfg);
    },

    getFeeForMessage(params) {
      const cfg = config(params, 1);
      const slot = contextSlot(chain, cfg);
      let message;
      try {
        message = decodeMessage(new Uint8Array(Buffer.from(stringParam(params, 0, 'a base64 message'), 'base64')));
      } catch (error) {
        throw invalidParams(`invalid message: ${(error as Error).message}`);
      }
      if (!chain.isBlockhashValid(message.blockhash)) return withContext(slot, null);
      return withContext(slot, feeOf(message.header.numRequiredSignatures, message.instructions, message.keys).fee);
    },

    requestAirdrop(params) {
      const address = stringParam(params, 0, 'a base58 address');
      const lamports = numberParam(params, 1, 'lamports');
      return chain.airdrop(address, BigInt(lamports));
    },
  };
}
