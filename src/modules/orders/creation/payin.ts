/**
 * The PAYIN variant of order creation: BRL in by PIX, tokens out to the receiver. The body fixes
 * the BRL the customer pays; the provider call is the PIX charge for exactly that amount.
 */
import type { Static } from 'typebox';
import { PixChargeConflictError, type PixProvider, txidOfKey, txidOfOrder } from '../../../adapters/pix/port.ts';
import { AppError, invalidField } from '../../../errors.ts';
import { decimal } from '../../../lib/money.ts';
import { isSolanaAddress } from '../../../lib/solana.ts';
import type { TradeRules } from '../../quotes/service.ts';
import type { OrderVariant, ParsedOrder } from './create-order.ts';
import { checkPayinWallet } from './destination-rules.ts';
import { checkWalletOwnership } from './wallet-ownership-rules.ts';
import type { PayinBody } from '../schemas.ts';
import type { OrderSettings } from '../../../config.ts';

interface ParsedPayin extends ParsedOrder {
  destinationWallet: string | undefined;
}

/** The treasury's liquidity check (treasury/liquidity.ts): refuses a PAYIN whose tokens the treasury cannot send. */
export interface PayinLiquidity {
  checkPayin(token: string, amountToken: string): Promise<void>;
}

export function payinVariant(deps: {
  rules: TradeRules;
  pix: Pick<PixProvider, 'createCharge'>;
  settings: Pick<OrderSettings, 'payinExpirySeconds'>;
  liquidity?: PayinLiquidity;
}): OrderVariant<Static<typeof PayinBody>, ParsedPayin> {
  const { rules, pix, settings, liquidity } = deps;
  return {
    type: 'PAYIN',
    initialStatus: 'AWAITING_PAYMENT',
    expirySeconds: settings.payinExpirySeconds,
    providerCall: 'PIX charge',

    parse(body) {
      const chain = body.chain ?? 'solana';
      const token = body.targetToken ?? 'USDC';
      rules.checkChain(chain);
      const tokenDecimals = rules.tokenDecimals(token, 'body.targetToken');
      rules.checkDecimals(body.amountBrl, 2, 'body.amountBrl');
      const amountBrl = decimal(body.amountBrl).toFixed(2);
      rules.checkBrlRange(amountBrl, 'body.amountBrl');
      if (body.destinationWallet !== undefined && !isSolanaAddress(body.destinationWallet)) {
        throw invalidField('body.destinationWallet', 'must be a Solana address (base58, 32 bytes)');
      }
      return {
        receiverId: body.receiverId,
        externalId: body.externalId,
        destinationWallet: body.destinationWallet,
        toPrice: { type: 'PAYIN', chain, token, tokenDecimals, receiverId: body.receiverId, quoteId: body.quoteId, amountBrl },
      };
    },

    receiverColumns(parsed, receiver) {
      const wallet = parsed.destinationWallet ?? receiver.walletAddress;
      if (!wallet) throw invalidField('body.destinationWallet', 'is required: the receiver has no wallet address');
      return { destination_wallet: wallet };
    },

    // The BRL paid is the body's own amount, checked by parse.
    checkPriced() {},

    checkWalletOwnership(ownership, priced) {
      checkWalletOwnership(ownership, priced.amountBrl);
    },

    async checkDestination(columns, receiver) {
      checkPayinWallet(columns.destination_wallet!, receiver);
    },

    async checkCapacity(parsed, priced) {
      await liquidity?.checkPayin(parsed.toPrice.token, priced.amountToken);
    },

    async callProvider(ref, _parsed, priced, receiver) {
      // With a key, the charge is named by the key: a retry or a concurrent duplicate finds it.
      const txid = ref.keyed ? txidOfKey(ref.keyed.merchantId, ref.keyed.key) : txidOfOrder(ref.orderId);
      // The receiver is the customer paying the charge: its document and name are the `devedor`.
      const payer = { documentType: receiver.documentType, document: receiver.document, name: receiver.name };
      const charge = await pix.createCharge({ txid, amountBrl: priced.amountBrl, expiresInSeconds: settings.payinExpirySeconds, payer }).catch((err: unknown) => {
        // The key's charge was made by an earlier request with this key that died before its
        // order, for another amount (another body): a charge never changes amount, so no retry
        // under this key can make this order. A 409 (stored as the key's answer) tells the client
        // so, where a 503 would have it retry the same failure forever.
        if (ref.keyed && err instanceof PixChargeConflictError) throw keyChargedAnotherAmount(err);
        throw err;
      });
      // A keyed retry may find a charge made earlier: the order must not outlive it.
      return { pix_txid: txid, pix_payment_code: charge.pixCopiaECola, ...(ref.keyed ? { expires_at: charge.expiresAt } : {}) };
    },
  };
}

/** 409 IDEMPOTENCY_CONFLICT: the documented answer to another request under a used key. */
function keyChargedAnotherAmount(cause: PixChargeConflictError): AppError {
  const message =
    'This Idempotency-Key already made a PIX charge for another amount, for an earlier request whose order was not created; use a new Idempotency-Key for this request';
  return Object.assign(new AppError('IDEMPOTENCY_CONFLICT', message), { cause });
}
