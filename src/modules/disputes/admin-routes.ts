/**
 * Operators' reads of MED claims across merchants (the back office's disputes page).
 */
import { IdParams, errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import { AdminDisputeListQuery, AdminDisputePage, AdminDisputeSchema, toAdminDispute } from './schemas.ts';
import type { DisputesService } from './service.ts';

const tags = ['Admin'];
const ADMIN_ERRORS = [400, 401, 403] as const;

export function registerAdminDisputeRoutes(app: App, disputes: DisputesService): void {
  app.get(
    '/admin/disputes',
    {
      schema: { tags, summary: 'MED claims of every merchant, newest first', querystring: AdminDisputeListQuery, response: { 200: AdminDisputePage, ...errorResponses(...ADMIN_ERRORS) } },
    },
    async (request) => {
      const { page, limit, status, orderId, merchantId } = request.query;
      const { rows, total } = await disputes.list({ ...(merchantId ? { merchantId } : {}), ...(status ? { status } : {}), ...(orderId ? { orderId } : {}) }, { page, pageSize: limit });
      return { data: rows.map(toAdminDispute), total, page, limit };
    },
  );

  app.get(
    '/admin/disputes/:id',
    { schema: { tags, summary: 'One MED claim', params: IdParams, response: { 200: AdminDisputeSchema, ...errorResponses(...ADMIN_ERRORS, 404) } } },
    async (request) => toAdminDispute(await disputes.get(request.params.id)),
  );
}
