/**
 * The payout batches' composition (called by src/services.ts): the creation pipeline checks each
 * line and makes each line's order, with the PAYOUT variant whose provider call makes nothing (a
 * line's order takes its share of the batch's deposit instead of an address of its own).
 */
import type { ChainAdapter } from '../../adapters/chain/port.ts';
import type { PixProvider } from '../../adapters/pix/port.ts';
import type { OrderSettings } from '../../config.ts';
import { type CreationDeps, createOrderPipeline } from '../orders/creation/create-order.ts';
import { payoutVariant } from '../orders/creation/payout.ts';
import type { TransitionContext } from '../orders/lifecycle/transitions.ts';
import type { LedgerService } from '../ledger/service.ts';
import type { QuotesService } from '../quotes/service.ts';
import type { PersonalData } from '../../lib/personal-data.ts';
import { createBatchFunding } from './funding.ts';
import { createPayoutBatches } from './service.ts';

export function createPayoutBatchModule(
  deps: CreationDeps & {
    settings: Pick<OrderSettings, 'nightStart' | 'nightEnd' | 'payoutExpirySeconds'>;
    quotes: Pick<QuotesService, 'tradeRules' | 'priceOrder' | 'consume'>;
    chain: Pick<ChainAdapter, 'createDepositAddress'>;
    pix: Pick<PixProvider, 'lookupPixKey'>;
    ledger: Pick<LedgerService, 'postPayoutBatchTokens'>;
    transitions: TransitionContext;
    personalData: Pick<PersonalData, 'open' | 'openNullable' | 'sealNullable'>;
  },
) {
  const payout = payoutVariant({ rules: deps.quotes.tradeRules, chain: deps.chain, pix: deps.pix, settings: deps.settings });
  const variant = { ...payout, providerCall: 'payout batch line', callProvider: async () => ({}) };
  const checking = createOrderPipeline(deps);
  const batches = createPayoutBatches({
    db: deps.db,
    clock: deps.clock,
    pipeline: checking,
    variant,
    chain: deps.chain,
    personalData: deps.personalData,
    rateTtlSeconds: deps.settings.payoutExpirySeconds,
  });
  const funding = createBatchFunding({
    db: deps.db,
    clock: deps.clock,
    variant,
    // At the line's own price, fixed when it was validated.
    createOrder: (price, merchantId, body, source) =>
      createOrderPipeline({ ...deps, quotes: { priceOrder: async () => price, consume: deps.quotes.consume } }).create(variant, merchantId, body, () => ({ status: 201, body: {} }), undefined, source),
    ledger: deps.ledger,
    transitions: deps.transitions,
    personalData: deps.personalData,
  });
  return { batches, funding };
}
