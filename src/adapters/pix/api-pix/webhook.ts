/**
 * The PSP's notifications (`POST <callback>/pix`, body `{"pix": [...]}`) as PixNotifications:
 * - an entry with a txid: the charge was paid (repeated with every refund of it: harmless, the
 *   orders module applies a payment once);
 * - its `devolucoes` in a final state: refunds settled. The API Pix document's own example gives
 *   `devolucoes` as one object instead of an array, so both are read;
 * - an entry with Efí's `gnExtras.idEnvio` and a final `status`: a PIX we sent was settled.
 * Entries of other shapes are skipped (a PSP may notify PIX we did not ask for).
 */
import type { PixNotification } from '../port.ts';
import { pixPayerOf } from './payer.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const E2E = /^[a-zA-Z0-9]{32}$/;
/** A `cob`'s txid (26 to 35) or a static code's (1 to 25: a standing charge's). */
const TXID = /^[a-zA-Z0-9]{1,35}$/;
const ID = /^[a-zA-Z0-9]{1,35}$/;
const AMOUNT = /^\d{1,10}\.\d{2}$/;

export class WebhookBodyError extends Error {}

export function parsePixWebhook(body: unknown): PixNotification[] {
  const entries = (body as Json | null)?.pix;
  if (!Array.isArray(entries)) throw new WebhookBodyError('body must be {"pix": [...]}');
  const notifications: PixNotification[] = [];
  for (const entry of entries as Json[]) {
    if (typeof entry !== 'object' || entry === null || !E2E.test(entry.endToEndId)) continue;
    const sentId = entry.gnExtras?.idEnvio;
    if (typeof sentId === 'string' && ID.test(sentId)) {
      if (entry.status === 'REALIZADO') notifications.push({ kind: 'payout_settled', providerTransactionId: sentId, status: 'CONFIRMED', endToEndId: entry.endToEndId });
      if (entry.status === 'NAO_REALIZADO') notifications.push({ kind: 'payout_settled', providerTransactionId: sentId, status: 'FAILED', reason: 'refused by the receiving institution' });
      continue;
    }
    const paidAt = new Date(entry.horario);
    if (TXID.test(entry.txid) && AMOUNT.test(entry.valor) && !Number.isNaN(paidAt.getTime())) {
      // The payer, when the PSP reports it (a claim like the rest: pix-confirmation.ts applies the PSP's own record).
      const payer = pixPayerOf(entry);
      notifications.push({ kind: 'charge_paid', txid: entry.txid, endToEndId: entry.endToEndId, amountBrl: entry.valor, paidAt, ...(payer ? { payer } : {}) });
    }
    const refunds = Array.isArray(entry.devolucoes) ? entry.devolucoes : entry.devolucoes ? [entry.devolucoes] : [];
    for (const refund of refunds as Json[]) {
      if (!ID.test(refund?.id)) continue;
      if (refund.status === 'DEVOLVIDO') notifications.push({ kind: 'refund_settled', endToEndId: entry.endToEndId, refundId: refund.id, status: 'DEVOLVIDO' });
      if (refund.status === 'NAO_REALIZADO') notifications.push({ kind: 'refund_settled', endToEndId: entry.endToEndId, refundId: refund.id, status: 'NAO_REALIZADO', reason: 'refused by the PSP' });
    }
  }
  return notifications;
}
