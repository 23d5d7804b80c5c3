/**
 * The PAYOUT variant of order creation: tokens in on chain, BRL out by PIX. The body fixes the
 * tokens deposited; the provider call is the order's deposit address.
 */
import { createHash } from 'node:crypto';
import type { Static } from 'typebox';
import type { ChainAdapter } from '../../../adapters/chain/port.ts';
import type { PixProvider } from '../../../adapters/pix/port.ts';
import { invalidField } from '../../../errors.ts';
import { decimal } from '../../../lib/money.ts';
import { validatePixKey } from '../../../lib/pix-keys.ts';
import type { TradeRules } from '../../quotes/service.ts';
import type { OrderVariant, ParsedOrder } from './create-order.ts';
import { checkPayoutKey } from './destination-rules.ts';
import type { PayoutBody } from '../schemas.ts';
import type { OrderSettings } from '../../../config.ts';

interface ParsedPayout extends ParsedOrder {
  /** In DICT form; undefined: the receiver's document. */
  pixKey: { key: string; type: string } | undefined;
  recipientName: string | undefined;
}

export function payoutVariant(deps: {
  rules: TradeRules;
  chain: Pick<ChainAdapter, 'createDepositAddress'>;
  pix: Pick<PixProvider, 'lookupPixKey'>;
  settings: Pick<OrderSettings, 'payoutExpirySeconds'>;
}): OrderVariant<Static<typeof PayoutBody>, ParsedPayout> {
  const { rules, chain, pix, settings } = deps;
  const lookup = pix.lookupPixKey?.bind(pix);
  return {
    type: 'PAYOUT',
    initialStatus: 'AWAITING_DEPOSIT',
    expirySeconds: settings.payoutExpirySeconds,
    providerCall: 'deposit address',

    parse(body) {
      const chainName = body.chain ?? 'solana';
      rules.checkChain(chainName);
      const tokenDecimals = rules.tokenDecimals(body.sourceToken, 'body.sourceToken');
      rules.checkDecimals(body.amountCrypto, tokenDecimals, 'body.amountCrypto');
      if ((body.pixKey === undefined) !== (body.pixKeyType === undefined)) {
        throw invalidField(body.pixKey === undefined ? 'body.pixKey' : 'body.pixKeyType', 'pixKey and pixKeyType go together');
      }
      let pixKey: ParsedPayout['pixKey'];
      if (body.pixKey !== undefined) {
        const checked = validatePixKey(body.pixKeyType!, body.pixKey);
        if (!checked.ok) throw invalidField('body.pixKey', checked.reason);
        pixKey = { key: checked.normalized, type: body.pixKeyType! };
      }
      return {
        receiverId: body.receiverId,
        externalId: body.externalId,
        pixKey,
        recipientName: body.recipientName,
        toPrice: {
          type: 'PAYOUT',
          chain: chainName,
          token: body.sourceToken,
          tokenDecimals,
          receiverId: body.receiverId,
          quoteId: body.quoteId,
          amountToken: decimal(body.amountCrypto).toFixed(tokenDecimals),
        },
      };
    },

    receiverColumns(parsed, receiver) {
      // Default key: the receiver's own document, which is a valid CPF or CNPJ PIX key.
      const key = parsed.pixKey ?? { key: receiver.document, type: receiver.documentType };
      return { pix_key: key.key, pix_key_type: key.type, recipient_name: parsed.recipientName ?? receiver.name };
    },

    // The deposit's BRL value is known only once priced; it must be a valid order amount.
    checkPriced(priced) {
      rules.checkBrlRange(priced.amountBrl, 'body.amountCrypto');
    },

    async checkDestination(columns, receiver) {
      await checkPayoutKey({ key: columns.pix_key!, type: columns.pix_key_type! }, receiver, lookup);
    },

    async callProvider(ref, parsed) {
      // With a key, the address is asked for by the key: a retry or a concurrent duplicate gets the same one.
      const { address } = await chain.createDepositAddress({ orderId: ref.keyed ? depositReferenceOfKey(ref.keyed) : ref.orderId, token: parsed.toPrice.token });
      return { deposit_address: address };
    },
  };
}

/** The deposit address's reference for an order created with an Idempotency-Key (the order's id is not known to a retry). */
export function depositReferenceOfKey(keyed: { merchantId: string; key: string }): string {
  return `key:${createHash('sha256').update(`${keyed.merchantId}\0${keyed.key}`).digest('hex')}`;
}
