/**
 * The cluster's clock and identity: getSlot, getBlockHeight, getLatestBlockhash,
 * isBlockhashValid, getRecentPrioritizationFees, getEpochInfo, getTransactionCount, getVersion,
 * getHealth, getGenesisHash, getIdentity, getFirstAvailableBlock, minimumLedgerSlot.
 */
import { randomBytes } from 'node:crypto';
import { encodeBase58 } from '../../src/lib/base58.ts';
import { BLOCKHASH_VALIDITY, type Chain, type ClockSettings } from './chain.ts';
import { type Handler, invalidParams } from './jsonrpc.ts';
import { commitmentOf, config, contextSlot, stringParam, withContext } from './params.ts';

const SLOTS_PER_EPOCH = 432_000;

export function clusterMethods(chain: Chain, settings: ClockSettings): Record<string, Handler> {
  const genesisHash = encodeBase58(randomBytes(32));
  const identity = encodeBase58(randomBytes(32));
  return {
    getSlot: (params) => contextSlot(chain, config(params, 0)),
    getBlockHeight: (params) => contextSlot(chain, config(params, 0)),

    getLatestBlockhash(params) {
      const cfg = config(params, 0);
      return withContext(contextSlot(chain, cfg), chain.latestBlockhash(commitmentOf(cfg)));
    },

    isBlockhashValid(params) {
      const blockhash = stringParam(params, 0, 'a blockhash');
      return withContext(contextSlot(chain, config(params, 1)), chain.isBlockhashValid(blockhash));
    },

    getRecentPrioritizationFees(params) {
      if (params[0] !== undefined && (!Array.isArray(params[0]) || params[0].length > 128)) throw invalidParams('Invalid params: expected at most 128 addresses');
      const newest = chain.slot;
      const fees = [];
      for (let slot = Math.max(1, newest - BLOCKHASH_VALIDITY + 1); slot <= newest; slot++) fees.push({ slot, prioritizationFee: settings.priorityFee });
      return fees;
    },

    getEpochInfo(params) {
      const slot = contextSlot(chain, config(params, 0));
      return {
        absoluteSlot: slot,
        blockHeight: slot,
        epoch: Math.floor(slot / SLOTS_PER_EPOCH),
        slotIndex: slot % SLOTS_PER_EPOCH,
        slotsInEpoch: SLOTS_PER_EPOCH,
        transactionCount: chain.counts.landed,
      };
    },

    getTransactionCount: () => chain.counts.landed,
    getVersion: () => ({ 'solana-core': '2.2.0', 'feature-set': 3294202862 }),
    getHealth: () => 'ok',
    getGenesisHash: () => genesisHash,
    getIdentity: () => ({ identity }),
    getFirstAvailableBlock: () => 0,
    minimumLedgerSlot: () => 0,
  };
}
