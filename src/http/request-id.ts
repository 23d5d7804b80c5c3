import type { IncomingMessage } from 'node:http';
import { newId } from '../lib/ids.ts';

/** A caller's x-request-id is kept when it is short and plain; anything else gets a fresh id. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFor(request: IncomingMessage): string {
  const header = request.headers['x-request-id'];
  return typeof header === 'string' && SANE_REQUEST_ID.test(header) ? header : newId();
}
