import { AUTHENTICATED_ERRORS, errorResponses } from '../../http/schemas.ts';
import { merchantIdOf } from '../../http/auth.ts';
import type { App } from '../../http/types.ts';
import { MerchantSchema } from './schemas.ts';
import type { MerchantsService } from './service.ts';

export function registerMerchantRoutes(app: App, merchants: MerchantsService): void {
  app.get(
    '/merchant',
    {
      schema: {
        tags: ['Merchant'],
        summary: 'The authenticated merchant',
        response: { 200: MerchantSchema, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => merchants.getMerchant(merchantIdOf(request)),
  );
}
