/**
 * The fee rates in force for a merchant and order type: its fee tier for the BRL volume of that
 * type it completed this São Paulo calendar month (DESIGN.md §5). Quotes price every order with
 * it; the volume is the orders' (a counter the completing transaction keeps, migration 0010), so
 * this lives here and the composition root hands it to the quotes service.
 */
import type { Db } from '../../../db/database.ts';
import type { OrderType } from '../../../lib/order-types.ts';
import type { Clock } from '../../../lib/clock.ts';
import type { FeeRates } from '../../../lib/pricing.ts';
import { saoPauloDay, saoPauloMonthOf } from '../../../lib/sao-paulo-time.ts';
import type { FeeTiersService } from '../../fee-tiers/service.ts';
import { ordersRepo as repo } from '../repo.ts';

/** Order creation has already read the volume with everything else; a quote has not. */
export function createCurrentFeeRates(deps: { db: Db; clock: Clock; feeTiers: Pick<FeeTiersService, 'tierForVolume'> }) {
  return async (merchantId: string, type: OrderType, monthVolumeBrl?: string): Promise<FeeRates> => {
    const volume = monthVolumeBrl ?? (await repo.completedVolume(deps.db, merchantId, type, saoPauloMonthOf(saoPauloDay(deps.clock.now()))));
    return deps.feeTiers.tierForVolume(merchantId, type, volume);
  };
}
