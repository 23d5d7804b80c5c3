/**
 * The PIX provider port, shaped after Banco Central's API Pix (DOMAIN.md) so that a real
 * adapter is a translation: charges (`cob`), received PIX (`pix`), refunds (`devolucao`), and
 * sending PIX (no BCB standard: each PSP's own API behind `sendPix`).
 *
 * Outcomes come back as `PixNotification`s, handed to the orders module's single entry point
 * (`handlePixNotification`, src/modules/orders/lifecycle/notifications.ts) by whoever receives them: a
 * provider webhook route, a polling job, or the sandbox drivers.
 */

/**
 * The caller names a charge (API Pix `PUT /cob/{txid}`): this makes a txid in the format every
 * PSP accepts, so the orders module needs nothing of the adapters beyond their ports.
 */
export { STATIC_TXID_PATTERN, newStaticTxid, newTxid, txidOfKey, txidOfOrder } from './identifiers.ts';

/** Decimal text with exactly 2 places, e.g. "10.50" (API Pix `valor`). */
export type BrlAmount = string;

export interface PixCharge {
  /** `[a-zA-Z0-9]{26,35}`, unique per receiving account. */
  txid: string;
  amountBrl: BrlAmount;
  /** The copy-and-paste BR Code (`pixCopiaECola`). */
  pixCopiaECola: string;
  expiresAt: Date;
}

/** A charge's payer (API Pix `devedor`): a CPF or CNPJ (bare, as receivers store them) and a name. */
export interface PixPayer {
  documentType: 'CPF' | 'CNPJ';
  document: string;
  name: string;
}

export interface ReceivedPix {
  endToEndId: string;
  txid: string | null;
  amountBrl: BrlAmount;
  /**
   * When it was paid (API Pix `horario`), by the PSP's clock: what a PAYIN's expiry is judged by
   * (orders/lifecycle/arrival-time.ts). An invalid Date when the PSP's record has none readable.
   */
  paidAt: Date;
  /**
   * Who paid, when the PSP reports it (docs/architecture/compliance-policies.md): not in API Pix's
   * `Pix` object, but most PSPs add it (Efí: `gnExtras.pagador`). Absent when the PSP does not say.
   */
  payer?: PixPayer;
}

export type RefundStatus = 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';

/**
 * A devolução's `natureza` (API Pix DevolucaoNatureza): ORIGINAL, the receiver gives a PIX back
 * (pacs.004 MD06); MED_FRAUDE, the return of a PIX under MED for founded suspicion of fraud (FR01).
 */
export type RefundNature = 'ORIGINAL' | 'MED_FRAUDE';

/**
 * A MED 2.0 infraction (fraud claim) on a PIX we received, as the PSP's MED extension reports it
 * (modelled on Efí's `/v2/gn/infracoes`: ABERTA, EM_DEFESA, ACEITA, REJEITADA, CANCELADA):
 * the payer's PSP opened it; we may defend until `defenseDeadline`; the PSP decides.
 */
export interface PixInfraction {
  /** The PSP's id of the infraction (`idInfracao`). */
  infractionId: string;
  /** The PIX claimed. */
  endToEndId: string;
  status: PixInfractionStatus;
  /** What the payer's PSP reported, as the PSP passes it on. */
  reason: string;
  /** The amount claimed (the PIX's, or less). */
  amountBrl: BrlAmount;
  reportedAt: Date;
  defenseDeadline: Date;
}

export type PixInfractionStatus = 'OPEN' | 'DEFENDED' | 'ACCEPTED' | 'REJECTED' | 'CANCELLED';

/** The PSP's MED extension: infractions against PIX we received, and our defense. */
export interface PixInfractions {
  /** Infractions reported in [from, to] (their current state). */
  listInfractions(window: { from: Date; to: Date }): Promise<PixInfraction[]>;
  /**
   * Contests an infraction (Efí: `analise: "negado"` with a `justificativa`). Throws
   * PixDefenseRefusedError when the PSP no longer takes a defense (deadline passed, already decided).
   */
  submitInfractionDefense(input: { infractionId: string; justification: string }): Promise<void>;
}

/** The PSP refused a defense: its deadline passed, or the infraction is no longer open. */
export class PixDefenseRefusedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PixDefenseRefusedError';
  }
}
export type PixKeyType = 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'EVP';

export type PixNotification =
  /** A charge was paid (API Pix webhook `pix[]` entry with txid). */
  | { kind: 'charge_paid'; txid: string; endToEndId: string; amountBrl: BrlAmount; paidAt: Date; payer?: PixPayer }
  /** A refund reached a final state (webhook `pix[].devolucoes[]`). */
  | { kind: 'refund_settled'; endToEndId: string; refundId: string; status: 'DEVOLVIDO' | 'NAO_REALIZADO'; reason?: string }
  /** An outgoing PIX was settled or refused by the provider. */
  | { kind: 'payout_settled'; providerTransactionId: string; status: 'CONFIRMED'; endToEndId: string }
  | { kind: 'payout_settled'; providerTransactionId: string; status: 'FAILED'; reason: string };

/** What the provider says of a refund when asked (reconciliation). */
export type RefundState = { status: 'EM_PROCESSAMENTO' } | { status: 'DEVOLVIDO' } | { status: 'NAO_REALIZADO'; reason: string };

/** What the provider says of a sent PIX when asked (reconciliation). */
export type PayoutState = { status: 'PROCESSING' } | { status: 'CONFIRMED'; endToEndId: string } | { status: 'FAILED'; reason: string };

/**
 * Lookups of the provider's own state, for the reconciliation job (src/modules/orders/
 * reconciliation.ts): it compares them with ours and applies what a lost notification would have.
 */
export interface PixLookups {
  /** GET /pix?inicio=&fim= (every page): PIX received in [from, to], with their txid. */
  listReceivedPix(window: { from: Date; to: Date }): Promise<ReceivedPix[]>;
  /** GET /cob/{txid}: the PIX that paid the charge, null while unpaid (or unknown). */
  getChargePayment(txid: string): Promise<ReceivedPix | null>;
  /** GET /pix/{e2eid}/devolucao/{id}; null: the provider does not know it. */
  getRefund(endToEndId: string, refundId: string): Promise<RefundState | null>;
  /** The status of a PIX sent by `sendPix`; null: the provider does not know it. */
  getPayout(providerTransactionId: string): Promise<PayoutState | null>;
}

/**
 * `sendPix`: the provider refused this payment outright (Efí: HTTP 400/422, e.g. an amount above
 * its limit), so it will never be made under this idempotency key and the order fails at once.
 * Transient failures and our own misconfiguration (authentication, scopes) are other errors, which
 * the worker retries. `cause` keeps the provider's own answer, for logs only.
 */
export class PixPayoutRefusedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PixPayoutRefusedError';
  }
}

/**
 * `createCharge`: a charge with this txid exists with another amount. A txid named by an
 * Idempotency-Key (`txidOfKey`) meets this when an earlier request under the key made the charge
 * and died before its order, and a retry asks another amount: a charge cannot change amount nor be
 * made twice, so no retry under that txid can succeed. `cause` keeps the provider's own answer.
 */
export class PixChargeConflictError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PixChargeConflictError';
  }
}

/** Who holds a PIX key, as the provider's key lookup (DICT) answers: the holder's CPF or CNPJ, bare. */
export interface PixKeyHolder {
  holderDocument: string;
}

export interface PixProvider extends PixLookups, PixInfractions {
  /** The provider's name (`sandbox`, `api-pix`); events call its transaction id `pspTransactionId` whatever it is. */
  readonly name: string;

  /**
   * PUT /cob/{txid}: idempotent per txid (a repeat answers the same charge; a repeat with another
   * amount throws PixChargeConflictError). `payer`, when known, is the charge's `devedor` (API Pix:
   * whom the charge is addressed to, not necessarily who pays).
   */
  createCharge(input: { txid: string; amountBrl: BrlAmount; expiresInSeconds: number; description?: string; payer?: PixPayer }): Promise<PixCharge>;

  /** GET /pix/{e2eid}: a received PIX, or null. */
  getReceivedPix(endToEndId: string): Promise<ReceivedPix | null>;

  /**
   * PUT /pix/{e2eid}/devolucao/{id}: idempotent per refundId. `nature` MED_FRAUDE (default
   * ORIGINAL) is the return of an accepted MED claim, through the PSP's MED extension.
   */
  refund(input: { endToEndId: string; refundId: string; amountBrl: BrlAmount; description: string; nature?: RefundNature }): Promise<{ refundId: string; status: RefundStatus }>;

  /**
   * Sends a PIX to a key; idempotent per `idempotencyKey` (a repeat answers the same transaction).
   * Throws PixPayoutRefusedError when the provider refuses the payment itself.
   */
  sendPix(input: {
    idempotencyKey: string;
    pixKey: string;
    pixKeyType: PixKeyType;
    amountBrl: BrlAmount;
    recipientName: string | null;
    description: string;
  }): Promise<{ providerTransactionId: string }>;

  /**
   * Who holds a key (DICT), when the provider offers a lookup: null if the key is not registered.
   * Optional: DICT answers participants masked documents and limits lookups on purpose (bacen/pix-api
   * discussion #666), so many PSPs offer none; without it only CPF/CNPJ keys can be shown to be the
   * receiver's. A masked document never equals a bare one, so it confirms nothing.
   */
  lookupPixKey?(key: string, keyType: PixKeyType): Promise<PixKeyHolder | null>;
}
