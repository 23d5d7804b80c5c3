/**
 * Fee tiers over HTTP: the merchant's own bands (spec, GET /fee-tiers, PUT /fee-tiers/{orderType})
 * and the platform's schedule under /admin. Rules live in service.ts and bands.ts.
 */
import { merchantIdOf } from '../../http/auth.ts';
import { AUTHENTICATED_ERRORS, BODY_ERRORS, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { adminActor } from '../../http/audit-actor.ts';
import { rejectPlatformFeeInBody } from './bands.ts';
import {
  AdminFeeTierQuery,
  FeeTierList,
  FeeTierQuery,
  MerchantFeeTiersBody,
  OrderTypeParams,
  PlatformFeeTierList,
  PlatformFeeTiersBody,
  ReplacedFeeTiers,
  ReplacedPlatformFeeTiers,
} from './schemas.ts';
import type { FeeTiersService } from './service.ts';

const tags = ['Fee Tiers'];
const FRACTIONS = 'Percentages are fractions: 0.005 = 0.5 %, and totalFeePercentage = platformFeePercentage + merchantFeePercentage (0.005 + 0.01 = 0.015).';

export function registerFeeTierRoutes(app: App, feeTiers: FeeTiersService): void {
  app.get(
    '/fee-tiers',
    {
      schema: {
        tags,
        summary: "The merchant's fee tiers of both order types",
        description: `Volume bands of the merchant's BRL volume of the calendar month, ordered by orderType then minVolumeBrl. ${FRACTIONS}`,
        querystring: FeeTierQuery,
        response: { 200: FeeTierList, ...errorResponses(400, ...AUTHENTICATED_ERRORS) },
      },
    },
    async (request) => feeTiers.listMerchantTiers(merchantIdOf(request), request.query.orderType),
  );

  app.put(
    '/fee-tiers/:orderType',
    {
      config: { idempotent: true },
      schema: {
        tags,
        summary: "Replace all the merchant's fee tiers of one order type",
        description: [
          'The array is the complete new set of that order type and replaces every existing tier (new ids); the other order type is untouched.',
          'Rules: 1 to the configured maximum of tiers; the first minVolumeBrl is 0; bands are contiguous (each minVolumeBrl equals the previous maxVolumeBrl);',
          'each maxVolumeBrl is greater than its minVolumeBrl; only the last tier may have maxVolumeBrl null (no upper bound); amounts have at most 2 decimals;',
          'merchantFeePercentage is a fraction from 0 to the platform maximum (0.1 = 10 % by default) with at most 6 decimals.',
          "platformFeePercentage cannot be sent (400): each tier gets the platform's rate in force at its minVolumeBrl, and its total (platform plus merchant) must stay below 1 (400, naming the tier).",
          FRACTIONS,
        ].join(' '),
        params: OrderTypeParams,
        body: MerchantFeeTiersBody,
        response: { 200: ReplacedFeeTiers, ...errorResponses(...AUTHENTICATED_ERRORS, ...BODY_ERRORS) },
      },
      // Before schema validation, so the 400 says why rather than "is not an allowed property".
      preValidation: async (request) => rejectPlatformFeeInBody(request.body),
    },
    async (request) => feeTiers.replaceMerchantTiers(merchantIdOf(request), request.params.orderType, request.body),
  );
}

const ADMIN_ERRORS = [400, 401, 403] as const;
const adminTags = ['Admin'];
const NOT_RETROACTIVE =
  "A change does not rewrite merchants' existing tiers (they keep the platform fee they had); it applies to new merchants and to a merchant's next PUT /fee-tiers of that order type.";

export function registerAdminFeeTierRoutes(app: App, feeTiers: FeeTiersService): void {
  app.get(
    '/admin/platform-fee-tiers',
    {
      schema: {
        tags: adminTags,
        summary: "The platform's fee schedule",
        description: `Platform fee bands per order type, ordered by orderType then minVolumeBrl. Percentages are fractions: 0.005 = 0.5 %. ${NOT_RETROACTIVE}`,
        querystring: AdminFeeTierQuery,
        response: { 200: PlatformFeeTierList, ...errorResponses(...ADMIN_ERRORS) },
      },
    },
    async (request) => feeTiers.listPlatformTiers(request.query.orderType),
  );

  app.put(
    '/admin/platform-fee-tiers/:orderType',
    {
      config: { idempotent: true },
      schema: {
        tags: adminTags,
        summary: "Replace the platform's fee schedule of one order type",
        description: [
          'The array is the complete new schedule of that order type. Same band rules as PUT /fee-tiers/{orderType};',
          'platformFeePercentage is a fraction from 0 to below 1 (0.005 = 0.5 %) with at most 8 decimals. Audited.',
          NOT_RETROACTIVE,
        ].join(' '),
        params: OrderTypeParams,
        body: PlatformFeeTiersBody,
        response: { 200: ReplacedPlatformFeeTiers, ...errorResponses(...ADMIN_ERRORS, ...BODY_ERRORS) },
      },
    },
    async (request) => feeTiers.replacePlatformTiers(request.params.orderType, request.body, adminActor(request)),
  );
}
