/**
 * What an operator reads of one merchant besides its record and credentials: its people and its
 * fee tiers, as the merchant itself sees them (GET /users, GET /fee-tiers). An unknown merchant
 * is 404, not an empty list: the operator asked about something that does not exist.
 */
import type { FeeTiersService } from '../fee-tiers/service.ts';
import type { MerchantsService } from '../merchants/service.ts';
import type { OrderType } from '../../lib/order-types.ts';
import type { UsersService } from '../users/service.ts';

export function createMerchantReads(deps: {
  merchants: Pick<MerchantsService, 'getMerchant'>;
  users: Pick<UsersService, 'list'>;
  feeTiers: Pick<FeeTiersService, 'listMerchantTiers'>;
}) {
  return {
    async users(merchantId: string) {
      await deps.merchants.getMerchant(merchantId);
      return deps.users.list(merchantId);
    },

    async feeTiers(merchantId: string, orderType?: OrderType) {
      await deps.merchants.getMerchant(merchantId);
      return deps.feeTiers.listMerchantTiers(merchantId, orderType);
    },
  };
}

export type MerchantReads = ReturnType<typeof createMerchantReads>;
