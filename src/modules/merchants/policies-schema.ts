/**
 * The one answer of a merchant's policies (MerchantPolicies) and the texts saying what each value
 * does (docs/architecture/compliance-policies.md): the operators' routes (admin/policies-routes.ts)
 * and the merchant's read (policies-routes.ts here) answer the same component, so the two sides
 * cannot describe a policy differently.
 */
import { Type } from 'typebox';
import { Timestamp, Uuid } from '../../http/schemas.ts';
import { DESTINATION_POLICIES, PAYER_POLICIES, WALLET_OWNERSHIP_POLICIES } from './tables.ts';

export const DESTINATION_DESCRIPTION =
  'RECEIVER_ONLY (default): a PAYOUT pays only a PIX key of the receiver (its own CPF/CNPJ key, or another key the PIX provider confirms is held by the receiver’s document), and a PAYIN transfers only to the receiver’s own wallet (its walletAddress or managed wallet); ' +
  'anything else is refused with 422 PIX_KEY_NOT_OWNED_BY_RECEIVER or DESTINATION_NOT_RECEIVER_WALLET. ANY: the merchant may name any valid key or wallet.';
export const PAYER_DESCRIPTION =
  "Who may pay a PAYIN's PIX. ANY (default): anyone. FIRST_PARTY: only the receiver, by the payer's CPF/CNPJ the PIX provider reports: a PIX from another document is returned to its payer (devolução, natureza ORIGINAL) and the order ends REFUNDED with a failureReason naming the masked document; " +
  'a PIX whose payer the provider does not report cannot be confirmed first-party and is returned the same way.';
// The day's reservation is given back as the receiver's daily limits are (decision 0034).
export const WALLET_OWNERSHIP_DESCRIPTION =
  "What a PAYIN to a wallet not proven the receiver's does (proofs: POST /receivers/{id}/wallet-ownership/challenges, then .../proofs; a managed wallet counts as proven). " +
  'ALLOW (default): accepted. LIMITED: accepted while the PAYINs of the day to that wallet (their amountBrl, São Paulo day, per merchant and wallet, reserved at creation and given back only when the PAYIN expires unpaid or is paid after its expiresAt) total at most unprovenWalletLimitBrl, above it 422 WALLET_OWNERSHIP_REQUIRED. REQUIRED: always 422 WALLET_OWNERSHIP_REQUIRED.';

// Titled: each policy is one component of the OpenAPI document, which the answer and the bodies
// refer to (http/openapi-components.ts).
export const DestinationPolicy = Type.Enum([...DESTINATION_POLICIES], { title: 'DestinationPolicy', description: DESTINATION_DESCRIPTION });
export const PayerPolicy = Type.Enum([...PAYER_POLICIES], { title: 'PayerPolicy', description: PAYER_DESCRIPTION });
export const WalletOwnershipPolicy = Type.Enum([...WALLET_OWNERSHIP_POLICIES], { title: 'WalletOwnershipPolicy', description: WALLET_OWNERSHIP_DESCRIPTION });

export const PoliciesSchema = Type.Object(
  {
    merchantId: Uuid(),
    destinationPolicy: DestinationPolicy,
    payerPolicy: PayerPolicy,
    walletOwnershipPolicy: WalletOwnershipPolicy,
    unprovenWalletLimitBrl: Type.Union([Type.Number(), Type.Null()], { description: 'LIMITED: the most BRL (amountBrl) the PAYINs of one São Paulo day to one unproven wallet may total; null when unset' }),
    updatedAt: Timestamp(),
  },
  { $id: 'MerchantPolicies', title: 'MerchantPolicies' },
);
