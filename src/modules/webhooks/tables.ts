/**
 * Tables of webhook endpoints, their secrets, deliveries and attempts. Merged into the database's table map
 * (`Database` in src/db/schema.ts) so repos query them through the one Kysely instance.
 */
import type { ColumnType, Selectable } from 'kysely';
import type { DefaultedTimestamp, NullableTimestamp } from '../../db/schema.ts';

export type WebhookDeliveryStatus = 'PENDING' | 'SUCCEEDED' | 'FAILED';

export interface WebhookEndpointsTable {
  id: string;
  merchant_id: string;
  url: string;
  description: string | null;
  /** null: every event; else the event names the endpoint receives. */
  event_types: ColumnType<string[] | null, string | null, string | null>;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  deleted_at: NullableTimestamp;
  /** The first failed attempt after the last success; null while healthy. */
  failing_since: NullableTimestamp;
  /** Why the platform disabled it (410 Gone, failing too long); null otherwise. */
  disabled_reason: string | null;
}

export interface WebhookEndpointSecretsTable {
  id: string;
  endpoint_id: string;
  /** AES-256-GCM ciphertext of the whsec_ secret (see modules/webhooks/secrets.ts). */
  secret_ciphertext: string;
  created_at: DefaultedTimestamp;
  /** null for the current secret; the previous one signs until then. */
  expires_at: NullableTimestamp;
}

export interface WebhookDeliveriesTable {
  /** The deliveryId (webhook-id header). */
  id: string;
  merchant_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  order_id: string | null;
  status: ColumnType<WebhookDeliveryStatus, WebhookDeliveryStatus | undefined, WebhookDeliveryStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  retries_used: ColumnType<number, number | undefined, number>;
  next_attempt_at: NullableTimestamp;
  last_attempt_at: NullableTimestamp;
  last_status_code: number | null;
  last_error: string | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

/** An attempt in flight: the worker holding `token` may record the delivery's outcome until `claimed_until`. */
export interface WebhookDeliveryLeasesTable {
  delivery_id: string;
  endpoint_id: string;
  order_id: string | null;
  token: string;
  claimed_until: Date;
}

export interface WebhookDeliveryAttemptsTable {
  id: string;
  delivery_id: string;
  attempt_number: number;
  attempted_at: ColumnType<Date, Date | string, Date | string>;
  succeeded: boolean;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_body: string | null;
}

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;

export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;

export type WebhookDeliveryAttemptRow = Selectable<WebhookDeliveryAttemptsTable>;

declare module '../../db/schema.ts' {
  interface Database {
    webhook_endpoints: WebhookEndpointsTable;
    webhook_endpoint_secrets: WebhookEndpointSecretsTable;
    webhook_deliveries: WebhookDeliveriesTable;
    webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
    webhook_delivery_leases: WebhookDeliveryLeasesTable;
  }
}

/** Every column of `webhook_deliveries`, named: a statement lists what it reads, and a column added later is not read until asked for. */
export const WEBHOOK_DELIVERY_COLUMNS = ['id', 'merchant_id', 'endpoint_id', 'event_id', 'event_type', 'order_id', 'status', 'attempts', 'retries_used', 'next_attempt_at', 'last_attempt_at', 'last_status_code', 'last_error', 'created_at', 'updated_at'] as const satisfies ReadonlyArray<keyof WebhookDeliveriesTable>;

/** Every column of `webhook_delivery_attempts`, named: a statement lists what it reads, and a column added later is not read until asked for. */
export const WEBHOOK_ATTEMPT_COLUMNS = ['id', 'delivery_id', 'attempt_number', 'attempted_at', 'succeeded', 'status_code', 'latency_ms', 'error', 'response_body'] as const satisfies ReadonlyArray<keyof WebhookDeliveryAttemptsTable>;

/** Every column of `webhook_endpoints`, named: a statement lists what it reads, and a column added later is not read until asked for. */
export const WEBHOOK_ENDPOINT_COLUMNS = ['id', 'merchant_id', 'url', 'description', 'event_types', 'enabled', 'created_at', 'updated_at', 'deleted_at', 'failing_since', 'disabled_reason'] as const satisfies ReadonlyArray<keyof WebhookEndpointsTable>;
