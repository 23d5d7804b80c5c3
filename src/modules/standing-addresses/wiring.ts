/**
 * The standing addresses' deposits composed (called by src/services.ts): the creation pipeline
 * makes each deposit's PAYOUT with the variant whose provider call makes nothing (the tokens are
 * at the standing address already).
 */
import type { ChainAdapter } from '../../adapters/chain/port.ts';
import type { PixProvider } from '../../adapters/pix/port.ts';
import type { OrderSettings } from '../../config.ts';
import { type CreationDeps, createOrderPipeline } from '../orders/creation/create-order.ts';
import { payoutVariant } from '../orders/creation/payout.ts';
import type { TransitionContext } from '../orders/lifecycle/transitions.ts';
import type { QuotesService } from '../quotes/service.ts';
import { createStandingDeposits } from './deposits.ts';

export function createStandingDepositsModule(
  deps: CreationDeps & {
    settings: Pick<OrderSettings, 'payoutExpirySeconds' | 'minAmountBrl'>;
    quotes: Pick<QuotesService, 'tradeRules' | 'priceOrder' | 'consume'>;
    chain: Pick<ChainAdapter, 'createDepositAddress'>;
    pix: Pick<PixProvider, 'lookupPixKey'>;
    transitions: TransitionContext;
  },
) {
  const payout = payoutVariant({ rules: deps.quotes.tradeRules, chain: deps.chain, pix: deps.pix, settings: deps.settings });
  const variant = { ...payout, providerCall: 'standing address deposit', callProvider: async () => ({}) };
  const pipeline = createOrderPipeline(deps);
  return createStandingDeposits({
    db: deps.db,
    clock: deps.clock,
    variant,
    createOrder: (v, merchantId, body, source) => pipeline.create(v, merchantId, body, () => ({ status: 201, body: {} }), undefined, source),
    transitions: deps.transitions,
    minAmountBrl: deps.settings.minAmountBrl,
    personalData: deps.personalData,
  });
}
