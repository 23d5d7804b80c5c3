import type { DocumentType, KycStatus, ReceiverRow, ReceiverStatus } from './tables.ts';

/**
 * What order creation needs of a receiver, with money as decimal text: its limits go into the
 * limit reservation's NUMERIC comparison, so they never pass through a JSON number.
 */
export interface OrderReceiver {
  id: string;
  name: string;
  document: string;
  documentType: DocumentType;
  walletAddress: string | null;
  status: ReceiverStatus;
  kycStatus: KycStatus;
  limits: { dailyLimitBrl: string | null; dailyTransactionLimit: number | null; nightTransactionsEnabled: boolean };
}

export function toOrderReceiver(row: ReceiverRow): OrderReceiver {
  return {
    id: row.id,
    name: row.name,
    document: row.document,
    documentType: row.document_type,
    walletAddress: row.wallet_address,
    status: row.status,
    kycStatus: row.kyc_status,
    limits: {
      dailyLimitBrl: row.daily_limit_brl,
      dailyTransactionLimit: row.daily_transaction_limit,
      nightTransactionsEnabled: row.night_transactions_enabled,
    },
  };
}
