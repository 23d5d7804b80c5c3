/**
 * Who reads customers' personal data in clear in the back office, and how it looks to the others
 * (issue 38 item 5, docs/decisions/0027 and 0033): one rule for every back-office read of a
 * person (the KYC queue and a receiver, receivers/reader-mask.ts; an order's payer,
 * orders/operator/admin-reads.ts).
 *
 * The permission that unmasks is `kyc.review` (COMPLIANCE, ADMIN): judging a person needs their
 * data, watching queues does not. A role without it (VIEWER, OPERATIONS, FINANCE), a person's or a
 * service account's, sees a document as DICT masks it (`***.456.789-**`) and names, contacts and
 * keys as `***`. The admin token has no role: it sees all, as it always has, and every request it
 * makes is on record (operators/guard.ts `auditAdminTokenUse`). A read that shows one person's data
 * in clear (a KYC file, an order's payer) also records who, when and which, whoever reads it.
 */
import type { FastifyRequest } from 'fastify';
import { maskDocument } from '../../lib/br-documents.ts';
import { operatorCan } from './roles.ts';

/** What a hidden value shows: its presence, never a character of it. */
export const HIDDEN = '***';

/** A value hidden as `***`; an absent one stays null (absence is not personal data). */
export const hide = <T extends string | null>(value: T): T => (value === null ? value : (HIDDEN as T));

/** A CPF or CNPJ as DICT masks it, the same for every reader that masks. */
export const maskedDocument = maskDocument;

/**
 * Whether the request's reader sees personal data masked: an operator's session or a service
 * account whose role lacks `kyc.review`. No operator at all (never on an admin route, whose
 * guard answers 401 first) is masked too, so a route mounted by mistake shows nothing in clear.
 */
export function readsMasked(request: FastifyRequest): boolean {
  const auth = request.operatorAuth;
  if (auth?.method === 'admin-token') return false;
  return !auth || !operatorCan(auth.role, 'kyc.review');
}
