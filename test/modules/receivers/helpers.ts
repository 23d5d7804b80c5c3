/**
 * Receivers (the merchant's end customers), for their tests: calls as the file's merchant
 * unless told otherwise, a receiver factory with the file's defaults, operator calls, the KYC
 * submission every test sends, and the events a receiver's KYC decisions emit.
 */
import type { TestContext, TestMerchant } from '../../helpers/app.ts';
import { type Json, type Method, adminHeaders, callAs, callAsAdmin, createReceiver as newReceiver } from '../../helpers/factories.ts';
import { openEventPayload } from '../../../src/platform/event-payload-sealing.ts';

export { UNKNOWN_ID, SOLANA_WALLET as SOLANA_ADDRESS } from '../../helpers/factories.ts';
export const admin = adminHeaders;

export const pfSubmission = {
  birthDate: '1990-05-17',
  motherName: 'Ana Silva',
  documents: [
    { type: 'ID_FRONT', reference: 's3://kyc/1' },
    { type: 'SELFIE', reference: 's3://kyc/2' },
  ],
};

/** Binds the calls to the file's context and its merchant (both created in beforeAll). */
export function receiversFixture(getCtx: () => TestContext, getMerchant: () => TestMerchant) {
  const call = (method: Exclude<Method, 'DELETE'>, url: string, payload?: unknown, who: TestMerchant = getMerchant()) => callAs(getCtx(), who, method, url, payload);

  /** A PENDING PF receiver (Maria Silva, maria@example.com) with `body` on top. */
  const createReceiver = (body: Json = {}, who: TestMerchant = getMerchant()): Promise<Json> => newReceiver(getCtx(), who, body);

  /** POST /api/v1/admin{url} with the admin token. */
  const adminCall = (url: string, payload?: object) => callAsAdmin(getCtx(), 'POST', url, payload);

  /** The events recorded for this receiver, oldest first, their payloads opened as every reader does (name and email are sealed at rest). */
  const eventsFor = async (receiverId: string) =>
    (
      await getCtx()
        .database.db.selectFrom('events')
        .selectAll()
        .where(({ eb }) => eb.ref('payload', '->>').key('receiverId' as never), '=', receiverId)
        .orderBy('created_at')
        .execute()
    ).map((row) => ({ ...row, payload: openEventPayload(getCtx().app.services.personalData, row.payload) }));

  return { call, createReceiver, adminCall, eventsFor };
}
