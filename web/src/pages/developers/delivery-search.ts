/**
 * The delivery log's search parameters (status, event, endpoint, order, page), validated by its
 * route in routes.tsx. Its own small file: routes.tsx is in the first load, the page is not.
 */
import type { components } from '../../api/schema.ts';

type DeliveryStatus = components['schemas']['WebhookDelivery']['status'];

export const STATUSES: DeliveryStatus[] = ['PENDING', 'SUCCEEDED', 'FAILED'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface DeliverySearch {
  page?: number;
  status?: DeliveryStatus;
  event?: string;
  endpointId?: string;
  orderId?: string;
}

/** The route's validateSearch: keeps only well-formed filters (a bad one would be the API's 400). */
export function deliverySearch(search: Record<string, unknown>): DeliverySearch {
  const page = Number(search.page);
  const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
  const status = STATUSES.find((s) => s === search.status);
  const event = text(search.event);
  const endpointId = text(search.endpointId);
  const orderId = text(search.orderId);
  return {
    ...(Number.isInteger(page) && page > 1 ? { page } : {}),
    ...(status ? { status } : {}),
    ...(event && /^[a-z_.]+$/.test(event) ? { event } : {}),
    ...(endpointId && UUID.test(endpointId) ? { endpointId } : {}),
    ...(orderId && UUID.test(orderId) ? { orderId } : {}),
  };
}

