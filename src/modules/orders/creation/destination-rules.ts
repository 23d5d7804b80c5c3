/**
 * Money goes only to the receiver (issue 24, finding 5): under the merchant's RECEIVER_ONLY
 * destination policy (merchants/tables.ts), a PAYOUT pays only a PIX key shown to be the
 * receiver's and a PAYIN transfers only to the receiver's own wallet. Run by order creation
 * (create-order.ts) last before the provider call, so a refused order leaves nothing behind.
 */
import type { PixKeyHolder, PixKeyType } from '../../../adapters/pix/port.ts';
import { AppError, providerUnavailable } from '../../../errors.ts';
import { normalizeDocument } from '../../../lib/br-documents.ts';
import type { OrderReceiver } from '../../receivers/service.ts';

export type PixKeyLookup = (key: string, keyType: PixKeyType) => Promise<PixKeyHolder | null>;

const notOwned = (why: string) =>
  new AppError('PIX_KEY_NOT_OWNED_BY_RECEIVER', `The PIX key must be the receiver's own (merchant destination policy RECEIVER_ONLY): ${why}`, {
    'body.pixKey': 'is not shown to be held by the receiver',
    destinationPolicy: 'RECEIVER_ONLY',
  });

/**
 * A CPF or CNPJ key is the receiver's when it is the receiver's document: such a key belongs to
 * that document for good (DICT registers it only to its holder). Any other key type changes hands,
 * so only the provider's lookup can show who holds it now; without one it is refused. The answer
 * never says who does hold a key: that would make this route a DICT lookup for anyone.
 */
export async function checkPayoutKey(key: { key: string; type: string }, receiver: Pick<OrderReceiver, 'document'>, lookup: PixKeyLookup | undefined): Promise<void> {
  if (key.type === 'CPF' || key.type === 'CNPJ') {
    if (key.key === receiver.document) return;
    throw notOwned(`a ${key.type} key is held by that ${key.type}, and this one is not the receiver's document`);
  }
  if (!lookup) throw notOwned("the PIX provider offers no key lookup to confirm who holds this key; pay the receiver's CPF or CNPJ key");
  let holder: PixKeyHolder | null;
  try {
    holder = await lookup(key.key, key.type as PixKeyType);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw providerUnavailable('The PIX key lookup failed; the order was not created. Retry later.', err);
  }
  if (holder && normalizeDocument(holder.holderDocument) === receiver.document) return;
  throw notOwned('the PIX provider does not confirm that the receiver holds this key');
}

/** The receiver's own wallet: its walletAddress, which is also where a managed wallet's address is kept. */
export function checkPayinWallet(wallet: string, receiver: Pick<OrderReceiver, 'walletAddress'>): void {
  if (wallet === receiver.walletAddress) return;
  throw new AppError(
    'DESTINATION_NOT_RECEIVER_WALLET',
    "destinationWallet must be the receiver's own wallet, its walletAddress or managed wallet (merchant destination policy RECEIVER_ONLY)",
    { 'body.destinationWallet': "is not the receiver's wallet", destinationPolicy: 'RECEIVER_ONLY' },
  );
}
