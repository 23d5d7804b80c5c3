/**
 * The resources a request touched, on its one log line (issue 40: an operator follows an order
 * from the request that created it to the worker's lines, by `orderId`). An order read or acted on
 * by its id in the path (`…/orders/:id…`, merchant, sandbox and admin routes alike) is named by the
 * completion line itself; a route that makes one names it with `logWith`. Only ids: never what the
 * body carried.
 */
import type { FastifyRequest } from 'fastify';
import { UUID_PATTERN } from '../lib/ids.ts';

/** Route templates whose `:id` is an order's. */
const ORDER_BY_ID = /\/orders\/:id(\/|$)/;

/** Binds `bindings` (a created resource's id) to the request's logger: its completion line, and any error line after, carry them. */
export function logWith(request: FastifyRequest, bindings: Record<string, string>): void {
  request.log = request.log.child(bindings);
}

/** The order named by the route's path, when it is one and the id is well-formed (a malformed one is the caller's text: not logged). */
export function touchedByPath(route: string, params: unknown): { orderId?: string } {
  if (!ORDER_BY_ID.test(route)) return {};
  const id = (params as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' && UUID_PATTERN.test(id) ? { orderId: id } : {};
}
