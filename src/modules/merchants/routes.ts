import { Type } from 'typebox';
import { AUTHENTICATED_ERRORS, errorResponses } from '../../http/schemas.ts';
import { merchantIdOf } from '../../http/auth.ts';
import type { App } from '../../http/types.ts';
import { MerchantSchema } from './schemas.ts';
import type { MerchantsService } from './service.ts';

/** What this service offers a merchant's integration, from its configuration (not per merchant). */
export interface MerchantEnvironment {
  sandbox: boolean;
  chains: string[];
  tokens: string[];
}

const EnvironmentSchema = Type.Object(
  {
    sandbox: Type.Boolean({
      description:
        'true when this service runs the sandbox: the /sandbox/* drivers exist (pay a PIX, make a deposit, decide KYC, inject failures) and no real money moves; false in production, where those routes answer 404',
    }),
    chains: Type.Array(Type.String(), { description: 'The chains orders accept (SUPPORTED_CHAINS), for `chain` of POST /payin, /payout and /quotes' }),
    tokens: Type.Array(Type.String(), { description: 'The token symbols orders accept (SUPPORTED_TOKENS), for `targetToken` of POST /payin and `sourceToken` of POST /payout' }),
  },
  { $id: 'MerchantEnvironment', title: 'MerchantEnvironment' },
);

export function registerMerchantRoutes(app: App, merchants: MerchantsService, environment: MerchantEnvironment): void {
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

  app.get(
    '/merchant/environment',
    {
      schema: {
        tags: ['Merchant'],
        summary: 'What this service offers: sandbox or not, chains and tokens',
        description:
          "The service's settings an integration (or the dashboard) adapts to: whether the sandbox drivers are on, and which chains and tokens orders accept. The same for every merchant of the service; it changes only with the service's configuration.",
        response: { 200: EnvironmentSchema, ...errorResponses(...AUTHENTICATED_ERRORS) },
      },
    },
    async () => environment,
  );
}
