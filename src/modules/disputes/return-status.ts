/**
 * The MED devolução's status as merchants read it. Stored in BACEN's API Pix terms (the PSP's
 * `status` of a devolução: EM_PROCESSAMENTO, DEVOLVIDO, NAO_REALIZADO, and our PENDING before the
 * request is taken); published in English, in the dispute API and the dispute events alike, so
 * the regulator's vocabulary stays inside and the two answers agree. The mapping:
 *
 * | stored           | published    | meaning                                          |
 * |------------------|--------------|--------------------------------------------------|
 * | PENDING          | PENDING      | the return is to be requested from the PSP       |
 * | EM_PROCESSAMENTO | PROCESSING   | the PSP took the request; the PIX is on its way  |
 * | DEVOLVIDO        | RETURNED     | the payer got the money back                     |
 * | NAO_REALIZADO    | NOT_RETURNED | the return was not made (refused or failed)      |
 */
import { Type } from 'typebox';
import type { DisputeReturnStatus } from './tables.ts';

export const RETURN_STATUSES = ['PENDING', 'PROCESSING', 'RETURNED', 'NOT_RETURNED'] as const;
export type PublishedReturnStatus = (typeof RETURN_STATUSES)[number];

const PUBLISHED: Record<DisputeReturnStatus, PublishedReturnStatus> = {
  PENDING: 'PENDING',
  EM_PROCESSAMENTO: 'PROCESSING',
  DEVOLVIDO: 'RETURNED',
  NAO_REALIZADO: 'NOT_RETURNED',
};

/** The published value of a stored return status (null: no return). */
export const publishedReturnStatus = (stored: DisputeReturnStatus | null): PublishedReturnStatus | null => (stored === null ? null : PUBLISHED[stored]);

/** One named schema for the API's Dispute and the dispute events (a component, DisputeReturnStatus). */
export const DisputeReturnStatusSchema = Type.Enum(RETURN_STATUSES, {
  title: 'DisputeReturnStatus',
  description:
    'The return (MED devolução) of an accepted claim: PENDING (to be requested from the PSP), PROCESSING (requested, under way), RETURNED (the payer got the money back), NOT_RETURNED (the return was not made)',
});

/** The field as the Dispute and the dispute events carry it: null while the claim has no return. */
export const NullableReturnStatus = Type.Union([DisputeReturnStatusSchema, Type.Null()], { description: 'The return of an accepted claim; null when there is none' });
