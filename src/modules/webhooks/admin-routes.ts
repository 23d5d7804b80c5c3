/** The back office's read on webhooks under /admin: endpoints' health across merchants. Thin: the rules are in health.ts. */
import { errorResponses } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import type { WebhookHealthService } from './health.ts';
import { HEALTH_WINDOW_HOURS, WebhookHealthQuery, WebhookHealthSchema } from './health-schemas.ts';

export function registerAdminWebhookRoutes(app: App, health: WebhookHealthService): void {
  app.get(
    '/admin/webhooks/health',
    {
      schema: {
        tags: ['Admin'],
        summary: "Merchants' webhook endpoints that are disabled, failing or retrying, worst first",
        description:
          `Per endpoint (deleted ones left out): its deliveries of the last ${HEALTH_WINDOW_HOURS} hours by status and their success rate, its last success and last failure (HTTP status and error), and its deliveries waiting for a retry. ` +
          'By default only endpoints disabled, failing (failingSince), with a FAILED delivery in the window or a retry waiting; `includeHealthy=true` lists every endpoint.',
        querystring: WebhookHealthQuery,
        response: { 200: WebhookHealthSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => health.list(request.query),
  );
}
