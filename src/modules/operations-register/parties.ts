/**
 * Who each registered movement is between (the travel rule's originator and beneficiary) and how
 * the platform sees the other side. Pure: the receiver's own name and document are filled in by
 * the register's statement (record.ts), so a party that is the client says only `client: true`.
 */
import type { CounterpartyType, RegisteredMovement } from './tables.ts';

/**
 * What the register reads of an order: the orders module's row satisfies it. The payer columns
 * are the PIX payer as the PSP reported it (the payer policy adds them to orders); an order
 * without them has the receiver stand in as the payer (`pixPayerOf`). The payer's document and
 * name, the PIX key and the recipient name come sealed (orders/sealed-columns.ts) and are copied
 * as they are: a kind of value (name, document, account) opens in the register as in orders.
 */
export interface RegisteredOrder {
  id: string;
  merchant_id: string;
  receiver_id: string;
  type: 'PAYIN' | 'PAYOUT';
  chain: string;
  token: string;
  exchange_rate: string;
  destination_wallet: string | null;
  deposit_address: string | null;
  pix_txid: string | null;
  pix_key: string | null;
  recipient_name: string | null;
  refund_id: string | null;
  provider_transaction_id: string | null;
  payer_document_type?: string | null;
  payer_document?: string | null;
  payer_name?: string | null;
}

/** A party of the movement: `client` fills what is null from the order's receiver. */
export interface Party {
  client: boolean;
  name: string | null;
  documentType: string | null;
  document: string | null;
  /** The wallet address or PIX key the party used, when known. */
  account: string | null;
}

const client = (account: string | null = null, name: string | null = null): Party => ({ client: true, name, documentType: null, document: null, account });

/**
 * The PIX payer of a PAYIN: the payer columns when the PSP reported them, else the receiver (the
 * merchant's client, whom the charge was made for). The payer's key or account is not reported.
 */
export function pixPayerOf(order: RegisteredOrder): Party {
  if (!order.payer_name && !order.payer_document) return client();
  return { client: false, name: order.payer_name ?? null, documentType: order.payer_document_type ?? null, document: order.payer_document ?? null, account: null };
}

export interface MovementShape {
  direction: 'IN' | 'OUT';
  /** The wallet the tokens moved to (null for PIX). */
  wallet: string | null;
  /** The counterparty type; a CHAIN_TRANSFER's is decided by the database (is the wallet one of ours?). */
  counterparty: CounterpartyType | 'BY_WALLET';
  originator: Party;
  beneficiary: Party;
  /** The PSP's own id of the movement: the charge's txid, the refund's id, the payout's transaction id. */
  pspReference: string | null;
}

/**
 * Each movement's parties:
 * - PIX_IN: the payer (or the receiver) → the receiver, whose order it pays;
 * - PIX_REFUND: the receiver's order → the payer it came from (or the receiver);
 * - PIX_OUT: the receiver → the receiver named as the order's recipientName, at its PIX key;
 * - CHAIN_TRANSFER: the receiver (the platform sends on its behalf) → the receiver at its wallet;
 * - CHAIN_DEPOSIT: the receiver (the sending wallet is not reported by the watcher) → the
 *   receiver's order, at the platform's deposit address.
 */
export function shapeOf(movement: RegisteredMovement, order: RegisteredOrder): MovementShape {
  switch (movement) {
    case 'PIX_IN':
      return { direction: 'IN', wallet: null, counterparty: 'PIX_PAYER', originator: pixPayerOf(order), beneficiary: client(), pspReference: order.pix_txid };
    case 'PIX_REFUND':
      return { direction: 'OUT', wallet: null, counterparty: 'PIX_PAYER', originator: client(), beneficiary: pixPayerOf(order), pspReference: order.refund_id };
    case 'PIX_OUT':
      return {
        direction: 'OUT',
        wallet: null,
        counterparty: 'PIX_RECIPIENT',
        originator: client(),
        beneficiary: client(order.pix_key, order.recipient_name),
        pspReference: order.provider_transaction_id,
      };
    case 'CHAIN_TRANSFER':
      return { direction: 'OUT', wallet: order.destination_wallet, counterparty: 'BY_WALLET', originator: client(), beneficiary: client(order.destination_wallet), pspReference: null };
    case 'CHAIN_DEPOSIT':
      return {
        direction: 'IN',
        wallet: order.deposit_address,
        counterparty: 'PLATFORM_DEPOSIT_ADDRESS',
        originator: client(),
        beneficiary: client(order.deposit_address),
        pspReference: null,
      };
  }
}
