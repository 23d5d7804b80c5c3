/**
 * Who paid a PAYIN (issue 30, docs/architecture/compliance-policies.md): under the merchant's
 * FIRST_PARTY payer policy the PIX must come from the receiver's own CPF/CNPJ. Any other payer,
 * or a PSP that does not say who paid, means the PIX goes back to whoever sent it (a devolução
 * of natureza ORIGINAL, the worker's refund step). Run by notifications.ts `chargePaid`.
 */
import type { PixPayer } from '../../../adapters/pix/port.ts';
import { maskDocument, normalizeDocument } from '../../../lib/br-documents.ts';
import type { PayerPolicy } from '../../merchants/tables.ts';

/** The refusal's reason (the order's failureReason), or undefined when the payer is accepted. Documents are masked. */
export function payerRefusal(policy: PayerPolicy, receiverDocument: string, payer: PixPayer | undefined): string | undefined {
  if (policy !== 'FIRST_PARTY') return undefined;
  if (!payer) return 'PIX payer not reported by the PIX provider: the merchant accepts only PIX from the receiver, which cannot be confirmed';
  if (normalizeDocument(payer.document) === receiverDocument) return undefined;
  return `PIX paid by a third party (${payer.documentType} ${maskDocument(payer.document)}): the merchant accepts only PIX from the receiver`;
}

/** The order's payer columns. */
export function payerColumns(payer: PixPayer | undefined) {
  return {
    payer_document_type: payer?.documentType ?? null,
    payer_document: payer ? normalizeDocument(payer.document) : null,
    payer_name: payer?.name ?? null,
  };
}
