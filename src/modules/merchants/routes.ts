import { AUTHENTICATED_ERRORS, errorResponses } from '../../http/schemas.ts';
import { merchantIdOf } from '../../http/auth.ts';
import type { App } from '../../http/types.ts';
import { MerchantSchema } from './schemas.ts';
import type { MerchantsService } from './service.ts';

export function registerMerchantRoutes(app: App, merchants: MerchantsService, options: { sandbox: boolean }): void {
  app.get(
    '/merchant',
    {
      schema: {
        tags: ['Merchant'],
        summary: 'The authenticated merchant',
        description: 'With `sandbox`: whether the sandbox drivers are on (the dashboard shows their buttons only then).',
        response: { 200: MerchantSchema, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => ({ ...(await merchants.getMerchant(merchantIdOf(request))), sandbox: options.sandbox }),
  );
}
