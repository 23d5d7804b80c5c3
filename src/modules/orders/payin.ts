/**
 * The PAYIN variant of order creation: BRL in by PIX, tokens out to the receiver. The body fixes
 * the BRL the customer pays; the provider call is the PIX charge for exactly that amount.
 */
import type { Static } from 'typebox';
import { type PixProvider, txidOfKey, txidOfOrder } from '../../adapters/pix/port.ts';
import { invalidField } from '../../errors.ts';
import { decimal } from '../../lib/money.ts';
import { isSolanaAddress } from '../../lib/solana.ts';
import type { TradeRules } from '../quotes/service.ts';
import type { OrderVariant, ParsedOrder } from './create-order.ts';
import { checkPayinWallet } from './destination-rules.ts';
import type { PayinBody } from './schemas.ts';
import type { OrderSettings } from '../../config.ts';

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
      const charge = await pix.createCharge({ txid, amountBrl: priced.amountBrl, expiresInSeconds: settings.payinExpirySeconds, payer });
      // A keyed retry may find a charge made earlier: the order must not outlive it.
      return { pix_txid: txid, pix_payment_code: charge.pixCopiaECola, ...(ref.keyed ? { expires_at: charge.expiresAt } : {}) };
    },
  };
}
