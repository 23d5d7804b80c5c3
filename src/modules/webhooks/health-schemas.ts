/** GET /admin/webhooks/health's shapes: one row per webhook endpoint, worst first. */
import { Type } from 'typebox';
import { Nullable, StrictObject, Timestamp, Uuid } from '../../http/schemas.ts';

export const HEALTH_WINDOW_HOURS = 24;

export const WebhookHealthQuery = StrictObject({
  includeHealthy: Type.Boolean({ default: false, description: 'Also list endpoints with nothing wrong; by default only the disabled, failing or retrying ones' }),
});

export const EndpointHealthSchema = Type.Object(
  {
    merchantId: Uuid(),
    merchantName: Type.String(),
    endpointId: Uuid(),
    url: Type.String(),
    status: Type.Enum(['ENABLED', 'DISABLED']),
    disabledReason: Nullable(Type.String({ description: 'Why the platform disabled it (410 Gone, failing too long); null when enabled or disabled by the merchant' })),
    failingSince: Nullable(Timestamp('The first failed attempt after the last success; null while healthy')),
    deliveries: Type.Object(
      {
        total: Type.Integer(),
        succeeded: Type.Integer(),
        failed: Type.Integer({ description: 'Ended FAILED: every retry used' }),
        pending: Type.Integer({ description: 'Not ended yet' }),
      },
      { description: `The deliveries created in the last ${HEALTH_WINDOW_HOURS} hours, by status now`, title: 'EndpointHealthDeliveries' },
    ),
    successRate: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
      description: 'succeeded / (succeeded + failed) of those deliveries, a fraction (0.75 = 75 %); null when none ended',
    }),
    lastSuccessAt: Nullable(Timestamp(`The newest successful delivery of the last ${HEALTH_WINDOW_HOURS} hours`)),
    lastFailureAt: Nullable(Timestamp(`The newest delivery whose last attempt failed (created in the last ${HEALTH_WINDOW_HOURS} hours, or waiting for a retry)`)),
    lastFailureStatusCode: Type.Union([Type.Integer(), Type.Null()], { description: 'Its HTTP status; null when no answer came (timeout, refused connection)' }),
    lastFailureError: Nullable(Type.String({ description: 'Its error, as recorded' })),
    pendingRetries: Type.Integer({ description: 'Deliveries whose last attempt failed and that wait for a retry, of any age' }),
  },
  { title: 'WebhookEndpointHealth' },
);

export const WebhookHealthSchema = Type.Object(
  {
    windowHours: Type.Integer({ description: 'The window of `deliveries`' }),
    data: Type.Array(EndpointHealthSchema, {
      description: 'Worst first: disabled, then failing (oldest failingSince first), then by success rate, failed deliveries and pending retries',
    }),
  },
  { title: 'WebhookHealth' },
);
