/**
 * Tables of merchants and their API credentials. Merged into the database's table map
 * (`Database` in src/db/schema.ts) so repos query them through the one Kysely instance.
 */
import type { ColumnType, Selectable } from 'kysely';
import type { DefaultedTimestamp, NullableTimestamp } from '../../db/schema.ts';

export type MerchantStatus = 'ACTIVE' | 'DISABLED';

/**
 * Where a merchant's orders may send money: RECEIVER_ONLY (the default) only to the receiver's own
 * PIX key or wallet; ANY wherever the merchant names, set only by an operator (issue 24, finding 5).
 */
export type DestinationPolicy = 'RECEIVER_ONLY' | 'ANY';
export const DESTINATION_POLICIES = ['RECEIVER_ONLY', 'ANY'] as const satisfies readonly DestinationPolicy[];

/**
 * Compliance policies (issue 30, docs/architecture/compliance-policies.md), set only by operators:
 * - payer: ANY (default) takes a PAYIN's PIX from anyone; FIRST_PARTY only from the receiver's own
 *   CPF/CNPJ (any other payer, or none reported, is returned to the payer);
 * - wallet ownership: what a PAYIN to a wallet not proven the receiver's does: ALLOW (default),
 *   LIMITED (up to `unproven_wallet_limit_brl` a São Paulo day per wallet, migration 0045), REQUIRED (refused).
 */
export type PayerPolicy = 'ANY' | 'FIRST_PARTY';
export const PAYER_POLICIES = ['ANY', 'FIRST_PARTY'] as const satisfies readonly PayerPolicy[];
export type WalletOwnershipPolicy = 'ALLOW' | 'LIMITED' | 'REQUIRED';
export const WALLET_OWNERSHIP_POLICIES = ['ALLOW', 'LIMITED', 'REQUIRED'] as const satisfies readonly WalletOwnershipPolicy[];

export interface MerchantsTable {
  id: string;
  name: string;
  status: MerchantStatus;
  destination_policy: ColumnType<DestinationPolicy, DestinationPolicy | undefined, DestinationPolicy>;
  payer_policy: ColumnType<PayerPolicy, PayerPolicy | undefined, PayerPolicy>;
  wallet_ownership_policy: ColumnType<WalletOwnershipPolicy, WalletOwnershipPolicy | undefined, WalletOwnershipPolicy>;
  /** BRL per order, NUMERIC text; set whenever the policy is LIMITED. */
  unproven_wallet_limit_brl: string | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface ApiCredentialsTable {
  id: string;
  merchant_id: string;
  /** Public key id, e.g. mk_..., sent as x-api-key. */
  key_id: string;
  /** HMAC-SHA256 of the secret under the pepper, hex. The secret itself is never stored. */
  secret_hash: string;
  /** The merchant's own name for the key, 1 to 100 characters. */
  label: string | null;
  created_at: DefaultedTimestamp;
  revoked_at: NullableTimestamp;
  /** After it the key answers 401 like an unknown one; NULL never expires. */
  expires_at: NullableTimestamp;
  /** Addresses and CIDR ranges the key may be used from (merchants/ip-allow-list.ts); NULL anywhere. */
  allowed_ips: string[] | null;
  /** merchants/scopes.ts; NULL is full access. */
  scopes: string[] | null;
  /** Written at most once a minute per key and process, off the request path. */
  last_used_at: NullableTimestamp;
}

/** What the merchants module reads of a merchant; the compliance policies are read by compliance-policies.ts. */
export type MerchantRow = Omit<Selectable<MerchantsTable>, 'payer_policy' | 'wallet_ownership_policy' | 'unproven_wallet_limit_brl'>;

declare module '../../db/schema.ts' {
  interface Database {
    merchants: MerchantsTable;
    api_credentials: ApiCredentialsTable;
  }
}
