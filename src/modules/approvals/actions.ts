/**
 * The actions that need two operators (four-eyes, docs/architecture/back-office.md): what each
 * needs of both operators, what it acts on, how a proposal is checked when it is made (the target
 * exists, the action applies now, its parameters are valid) and what approving it runs, inside
 * the approval's transaction so the action and the decision commit together or not at all.
 */
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { AppError } from '../../errors.ts';
import { UUID_PATTERN } from '../../lib/ids.ts';
import { PlatformFeeTiersBody } from '../fee-tiers/schemas.ts';
import type { FeeTiersService } from '../fee-tiers/service.ts';
import type { MerchantsService } from '../merchants/service.ts';
import { operatorFourEyesActions } from './operator-actions.ts';
import { serviceAccountFourEyesActions } from './service-account-actions.ts';
import type { FourEyesAction, Proposed } from './action-types.ts';
import type { OrderOperatorActions } from '../orders/operator/operator-actions-service.ts';
import { FundingBody } from '../treasury/schemas.ts';
import type { TreasuryService } from '../treasury/service.ts';
import type { SettlementPixKeys } from '../settlement-payouts/keys.ts';

export const APPROVAL_ACTIONS = ['ORDER_REFUND', 'PAYOUT_RETRY', 'MERCHANT_ENABLE', 'PLATFORM_FEE_CHANGE', 'TREASURY_WITHDRAWAL', 'OPERATOR_CREATE', 'OPERATOR_ROLE_CHANGE', 'OPERATOR_ENABLE', 'SERVICE_ACCOUNT_ACTIVATE', 'SETTLEMENT_PIX_KEY'] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];

export type { FourEyesAction, Proposed } from './action-types.ts';

/** The body PUT /admin/platform-fee-tiers/{orderType} takes, under `tiers`. */
const FeeTiersParams = Type.Object({ tiers: PlatformFeeTiersBody }, { additionalProperties: false });

function feeTierParams(proposal: Proposed): Static<typeof FeeTiersParams>['tiers'] {
  if (!Value.Check(FeeTiersParams, proposal.params)) throw new AppError('VALIDATION_ERROR', 'params must be {tiers: [...]}, the body of PUT /admin/platform-fee-tiers/{orderType}', { 'body.params': 'must be {tiers: [...]} as PUT /admin/platform-fee-tiers/{orderType} takes' });
  return proposal.params.tiers;
}

/**
 * A funding's body (POST /admin/treasury/fundings) but the currency, which is the target. Omit
 * does not carry the body's `additionalProperties: false` over: without it here, a proposal with
 * extra fields (say, a `currency` meant to differ from the target) passed (issue 38 item 8).
 */
const WithdrawalParams = Type.Omit(FundingBody, ['currency'], { additionalProperties: false });

function withdrawal(proposal: Proposed) {
  if (!Value.Check(WithdrawalParams, proposal.params)) throw new AppError('VALIDATION_ERROR', 'params must be {amount, reference, note?, wallet?}, as POST /admin/treasury/fundings takes', { 'body.params': 'must be {amount, reference, note?, wallet?}' });
  const params = proposal.params as Static<typeof WithdrawalParams>;
  return { currency: proposal.targetId, amount: String(params.amount), reference: params.reference, ...(params.note ? { note: params.note } : {}), ...(params.wallet ? { wallet: params.wallet } : {}) };
}

/** An order's or a merchant's id: anything else is a 400 here, not a failed uuid cast in the database. */
function idTarget(proposal: Proposed): string {
  if (!UUID_PATTERN.test(proposal.targetId)) throw new AppError('VALIDATION_ERROR', 'targetId of this action is an id (a UUID)', { 'body.targetId': 'must be a UUID' });
  return proposal.targetId;
}

const orderType = (targetId: string) => {
  if (targetId !== 'PAYIN' && targetId !== 'PAYOUT') throw new AppError('VALIDATION_ERROR', 'targetId of PLATFORM_FEE_CHANGE is the order type, PAYIN or PAYOUT', { 'body.targetId': 'must be PAYIN or PAYOUT' });
  return targetId;
};

export function fourEyesActions(deps: {
  orders: OrderOperatorActions;
  merchants: Pick<MerchantsService, 'getMerchant' | 'setMerchantStatus'>;
  feeTiers: Pick<FeeTiersService, 'listPlatformTiers' | 'checkPlatformTiers' | 'replacePlatformTiers'>;
  treasury: Pick<TreasuryService, 'checkWithdrawal' | 'withdraw'>;
  operators: Parameters<typeof operatorFourEyesActions>[0] & { serviceAccounts: Parameters<typeof serviceAccountFourEyesActions>[0] };
  settlementPixKeys: Pick<SettlementPixKeys, 'check' | 'activate'>;
}): Record<ApprovalAction, FourEyesAction> {
  return {
    // A merchant's settlement PIX key (docs/decisions/0044): asked for by one operator, used once another approves.
    SETTLEMENT_PIX_KEY: {
      permission: 'treasury.manage',
      targetType: 'settlement_pix_key',
      check: (proposal) => deps.settlementPixKeys.check(idTarget(proposal)),
      execute: async (trx, proposal, by) => deps.settlementPixKeys.activate(trx, idTarget(proposal), by),
    },
    ...operatorFourEyesActions(deps.operators),
    ...serviceAccountFourEyesActions(deps.operators.serviceAccounts),
    ORDER_REFUND: {
      permission: 'orders.operate',
      targetType: 'order',
      check: (proposal) => deps.orders.check(idTarget(proposal), 'REFUND'),
      execute: async (trx, proposal, by) => ({ order: await deps.orders.refund(trx, proposal.targetId, proposal.reason, by) }),
    },
    PAYOUT_RETRY: {
      permission: 'orders.operate',
      targetType: 'order',
      check: (proposal) => deps.orders.check(idTarget(proposal), 'RETRY_PAYOUT'),
      execute: async (trx, proposal, by) => ({ order: await deps.orders.retryPayout(trx, proposal.targetId, proposal.reason, by) }),
    },
    MERCHANT_ENABLE: {
      permission: 'merchants.manage',
      targetType: 'merchant',
      async check(proposal) {
        const merchant = await deps.merchants.getMerchant(idTarget(proposal));
        if (merchant.status !== 'DISABLED') throw new AppError('CONFLICT', 'The merchant is not disabled');
        return { merchantId: null, before: { status: merchant.status } };
      },
      execute: async (trx, proposal, by) => ({ merchant: await deps.merchants.setMerchantStatus(proposal.targetId, 'ACTIVE', by, trx) }),
    },
    PLATFORM_FEE_CHANGE: {
      permission: 'fees.manage',
      targetType: 'platform_fee_tiers',
      async check(proposal) {
        deps.feeTiers.checkPlatformTiers(feeTierParams(proposal));
        return { merchantId: null, before: await deps.feeTiers.listPlatformTiers(orderType(proposal.targetId)) };
      },
      execute: async (trx, proposal, by) => deps.feeTiers.replacePlatformTiers(orderType(proposal.targetId), feeTierParams(proposal), by, trx),
    },
    TREASURY_WITHDRAWAL: {
      permission: 'treasury.manage',
      targetType: 'treasury',
      async check(proposal) {
        const { ledgerBalance } = await deps.treasury.checkWithdrawal(withdrawal(proposal));
        return { merchantId: null, before: { ledgerBalance } };
      },
      execute: async (trx, proposal, by) => ({ withdrawal: await deps.treasury.withdraw(trx, withdrawal(proposal), by) }),
    },
  };
}
