/** Operator reads of one merchant: its people and its fee tiers (merchant-reads.ts). */
import { Type } from 'typebox';
import { IdParams, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { FeeTierList, FeeTierQuery } from '../fee-tiers/schemas.ts';
import { UserSchema } from '../users/schemas.ts';
import type { MerchantReads } from './merchant-reads.ts';

const tags = ['Admin'];
const ERRORS = [400, 401, 403, 404] as const;

export function registerAdminMerchantReadRoutes(app: App, reads: MerchantReads): void {
  app.get(
    '/admin/merchants/:id/users',
    {
      schema: {
        tags,
        summary: "A merchant's people: email, role, whether TOTP is on (never a password or a TOTP secret)",
        description: 'Oldest first, as GET /users shows them to the merchant. Pending invitations are not people yet and are not listed.',
        params: IdParams,
        response: { 200: Type.Array(UserSchema), ...errorResponses(...ERRORS) },
      },
    },
    async (request) => reads.users(request.params.id),
  );

  app.get(
    '/admin/merchants/:id/fee-tiers',
    {
      schema: {
        tags,
        summary: "A merchant's fee tiers, as GET /fee-tiers shows them to the merchant",
        description: 'Volume bands of both order types (or `orderType`), ordered by orderType then minVolumeBrl. Percentages are fractions: 0.005 = 0.5 %.',
        params: IdParams,
        querystring: FeeTierQuery,
        response: { 200: FeeTierList, ...errorResponses(...ERRORS) },
      },
    },
    async (request) => reads.feeTiers(request.params.id, request.query.orderType),
  );
}
