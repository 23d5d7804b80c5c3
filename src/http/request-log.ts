/**
 * The resources a request touched, on its one log line (issue 40: an operator follows an order
 * from the request that created it to the worker's lines, by `orderId`). A resource read or acted
 * on by its id in the path (`…/orders/:id…`, `…/receivers/:id…`, a dispute, an approval, …;
 * merchant, sandbox and admin routes alike) is named by the completion line itself; a route that
 * makes an order or a receiver names it with `logWith`. Only ids: never what the body carried.
 */
import type { FastifyRequest } from 'fastify';
import { UUID_PATTERN } from '../lib/ids.ts';

/**
 * The resource a route's `:id` names, by the path segment before it (every route template with an
 * id, merchant, sandbox and admin alike). `/admin/merchants/:id` is a merchant's: the line names it
 * as the merchant routes' lines do.
 */
const RESOURCE_OF_ID: ReadonlyArray<[RegExp, string]> = [
  [/\/orders\/:id(\/|$)/, 'orderId'],
  [/\/receivers\/:(id|receiverId)(\/|$)/, 'receiverId'],
  [/\/disputes\/:id(\/|$)/, 'disputeId'],
  [/\/approvals\/:id(\/|$)/, 'approvalId'],
  [/\/admin\/merchants\/:id(\/|$)/, 'merchantId'],
  [/\/operators\/:id$/, 'operatorId'],
  [/\/service-accounts\/:id$/, 'serviceAccountId'],
  [/\/webhook\/deliveries\/:id(\/|$)/, 'deliveryId'],
  [/\/webhook\/endpoints\/:id(\/|$)/, 'endpointId'],
];

/** Binds `bindings` (a created resource's id) to the request's logger: its completion line, and any error line after, carry them. */
export function logWith(request: FastifyRequest, bindings: Record<string, string>): void {
  request.log = request.log.child(bindings);
}

/** The resource named by the route's path, when it names one and the id is well-formed (a malformed one is the caller's text: not logged). */
export function touchedByPath(route: string, params: unknown): Record<string, string> {
  const found = RESOURCE_OF_ID.find(([pattern]) => pattern.test(route));
  if (!found) return {};
  const { id, receiverId } = (params ?? {}) as { id?: unknown; receiverId?: unknown };
  const value = id ?? receiverId;
  return typeof value === 'string' && UUID_PATTERN.test(value) ? { [found[1]]: value } : {};
}
