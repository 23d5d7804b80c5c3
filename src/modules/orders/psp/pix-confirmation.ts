/**
 * A PIX is money only when the PSP says so (issue 24). A notification posted to our callback is a
 * claim by whoever could reach the URL; before it changes anything it is confirmed with the PSP's
 * own record, read over our authenticated mTLS client:
 * - charge_paid: `GET /pix/{e2eid}` (else the charge's `GET /cob/{txid}`, its `pix` list) must
 *   show that PIX, received for that txid, of that amount (and by that payer, when one is named:
 *   the payer applied is always the record's, and so is the time it was paid, `horario`);
 * - refund_settled: `GET /pix/{e2eid}/devolucao/{id}` must be in the notified final state;
 * - payout_settled: the PSP's status of the sent PIX must be the notified final one (and, when
 *   CONFIRMED, with the notified endToEndId).
 * What is then applied is built from the PSP's answer, never from the body. A notification that
 * differs in anything is refused whole, not corrected: a genuine one equals the PSP's record, so a
 * difference is a forgery or an inconsistent PSP, and either way the money is still found (the
 * PSP's own notification, or reconciliation, which reads the same record). A refusal is recorded
 * (`pix_notification_rejections`) and changes nothing. A lookup that fails (PSP unreachable,
 * unreadable answer) throws: the caller answers 503 and the PSP sends the notification again.
 *
 * Only the callback route needs this: reconciliation and the sandbox drivers already build their
 * notifications from the provider's own state.
 */
import type { PixNotification, PixProvider, ReceivedPix } from '../../../adapters/pix/port.ts';
import type { Db } from '../../../db/database.ts';
import type { Clock } from '../../../lib/clock.ts';
import { decimal } from '../../../lib/money.ts';
import { pixConfirmationRepo as repo } from './pix-confirmation-repo.ts';

/** The PSP lookups a confirmation reads (all of them are our authenticated calls to the PSP). */
export type PixConfirmationLookups = Pick<PixProvider, 'getReceivedPix' | 'getChargePayment' | 'getRefund' | 'getPayout'>;

export type PixConfirmation = { confirmed: true; notification: PixNotification } | { confirmed: false; reason: string };

type Outcome<Kind extends PixNotification['kind']> = Extract<PixNotification, { kind: Kind }>;

const refused = (reason: string): PixConfirmation => ({ confirmed: false, reason });

async function confirmChargePaid(pix: PixConfirmationLookups, claimed: Outcome<'charge_paid'>): Promise<PixConfirmation> {
  let record: ReceivedPix | null = await pix.getReceivedPix(claimed.endToEndId);
  if (!record) {
    const paidBy = await pix.getChargePayment(claimed.txid);
    record = paidBy?.endToEndId === claimed.endToEndId ? paidBy : null;
  }
  if (!record) return refused(`the PSP knows no PIX ${claimed.endToEndId} paying charge ${claimed.txid}`);
  if (record.endToEndId !== claimed.endToEndId) return refused(`the PSP answered PIX ${record.endToEndId} for ${claimed.endToEndId}`);
  if (record.txid !== claimed.txid) return refused(`the PSP has PIX ${claimed.endToEndId} for txid ${record.txid ?? '(none)'}, not ${claimed.txid}`);
  const amount = decimal(record.amountBrl);
  if (!amount.eq(claimed.amountBrl)) return refused(`the PSP has PIX ${claimed.endToEndId} of ${amount.toFixed(2)} BRL, not ${claimed.amountBrl}`);
  // Who paid decides the payer policy (payer-rules.ts): only the PSP's record says. A body naming
  // another payer than the record is refused like any other difference; a body naming none (a PSP
  // whose webhook leaves the extension out) takes the record's.
  if (claimed.payer && claimed.payer.document !== record.payer?.document) {
    return refused(`the PSP has PIX ${claimed.endToEndId} paid by ${record.payer ? 'another payer' : 'an unreported payer'}, not the one notified`);
  }
  // When it was paid decides whether it came in time (lifecycle/arrival-time.ts): only the record
  // says, as for the payer. A record without a readable horario stays so, and our clock stands in
  // there; never the body's, which could make a late PIX look paid in time.
  const payer = record.payer ? { payer: record.payer } : {};
  return { confirmed: true, notification: { kind: 'charge_paid', txid: record.txid, endToEndId: record.endToEndId, amountBrl: amount.toFixed(2), paidAt: record.paidAt, ...payer } };
}

async function confirmRefundSettled(pix: PixConfirmationLookups, claimed: Outcome<'refund_settled'>): Promise<PixConfirmation> {
  const state = await pix.getRefund(claimed.endToEndId, claimed.refundId);
  if (!state) return refused(`the PSP knows no refund ${claimed.refundId} of PIX ${claimed.endToEndId}`);
  if (state.status !== claimed.status) return refused(`the PSP has refund ${claimed.refundId} ${state.status}, not ${claimed.status}`);
  const { endToEndId, refundId } = claimed;
  const notification: PixNotification =
    state.status === 'NAO_REALIZADO' ? { kind: 'refund_settled', endToEndId, refundId, status: 'NAO_REALIZADO', reason: state.reason } : { kind: 'refund_settled', endToEndId, refundId, status: 'DEVOLVIDO' };
  return { confirmed: true, notification };
}

async function confirmPayoutSettled(pix: PixConfirmationLookups, claimed: Outcome<'payout_settled'>): Promise<PixConfirmation> {
  const { providerTransactionId } = claimed;
  const state = await pix.getPayout(providerTransactionId);
  if (!state) return refused(`the PSP knows no payout ${providerTransactionId}`);
  if (state.status === 'PROCESSING' || state.status !== claimed.status) return refused(`the PSP has payout ${providerTransactionId} ${state.status}, not ${claimed.status}`);
  if (state.status === 'FAILED') return { confirmed: true, notification: { kind: 'payout_settled', providerTransactionId, status: 'FAILED', reason: state.reason } };
  if (claimed.status === 'CONFIRMED' && state.endToEndId !== claimed.endToEndId) {
    return refused(`the PSP has payout ${providerTransactionId} settled as PIX ${state.endToEndId}, not ${claimed.endToEndId}`);
  }
  return { confirmed: true, notification: { kind: 'payout_settled', providerTransactionId, status: 'CONFIRMED', endToEndId: state.endToEndId } };
}

/** Confirms one notification with the PSP; throws when the PSP cannot be asked (the caller answers 503). */
export function confirmPixNotification(pix: PixConfirmationLookups, claimed: PixNotification): Promise<PixConfirmation> {
  switch (claimed.kind) {
    case 'charge_paid':
      return confirmChargePaid(pix, claimed);
    case 'refund_settled':
      return confirmRefundSettled(pix, claimed);
    case 'payout_settled':
      return confirmPayoutSettled(pix, claimed);
  }
}

/** What the PSP was asked about, naming a rejection's row. */
const referenceOf = (claimed: PixNotification) =>
  claimed.kind === 'charge_paid' ? claimed.endToEndId : claimed.kind === 'refund_settled' ? claimed.refundId : claimed.providerTransactionId;

export function createPixConfirmation(deps: { db: Db; clock: Clock; pix: PixConfirmationLookups }) {
  return {
    /**
     * The PSP's version of the notification to apply, or its refusal, which is recorded here (with
     * the request that carried it) and must change nothing else.
     */
    async confirm(claimed: PixNotification, requestId: string): Promise<PixConfirmation> {
      const confirmation = await confirmPixNotification(deps.pix, claimed);
      if (!confirmation.confirmed) {
        await repo.recordRejection(deps.db, { receivedAt: deps.clock.now(), requestId, kind: claimed.kind, reference: referenceOf(claimed), notification: claimed, reason: confirmation.reason });
      }
      return confirmation;
    },
  };
}

export type PixConfirmationService = ReturnType<typeof createPixConfirmation>;
