/**
 * What an operator without `kyc.review` sees of a receiver in the back office's paged reads (the
 * KYC queue, GET /admin/receivers/{id}): the document masked as DICT masks it (`***.456.789-**`),
 * the email, phone and street address hidden (issue 38 item 5). Reviewing needs them; watching the
 * queue does not, and those reads are not recorded page by page. The KYC file
 * (GET /admin/receivers/{id}/kyc) shows them whole, and every opening of it is recorded.
 */
import type { FastifyRequest } from 'fastify';
import { maskDocument } from '../../lib/br-documents.ts';
import { operatorCan } from '../operators/roles.ts';
import type { Receiver } from './service.ts';

const HIDDEN = '***';
const hide = <T extends string | null>(value: T): T => (value === null ? value : (HIDDEN as T));

/** A signed-in operator whose role may not review KYC (the admin token and reviewers see all). */
export function readsMasked(request: FastifyRequest): boolean {
  const auth = request.operatorAuth;
  return auth?.method === 'session' && !operatorCan(auth.role, 'kyc.review');
}

export function maskReceiver(receiver: Receiver): Receiver {
  return {
    ...receiver,
    document: maskDocument(receiver.document),
    email: hide(receiver.email),
    phone: hide(receiver.phone),
    addressStreet: hide(receiver.addressStreet),
    addressNumber: hide(receiver.addressNumber),
    addressComplement: hide(receiver.addressComplement),
    addressZipCode: hide(receiver.addressZipCode),
  };
}
