/**
 * Standing deposit addresses (issue 43, item 1; docs/decisions/0046-standing-addresses-hold-over-limit-deposits.md):
 * a receiver's permanent Solana address bound to a PIX key of the receiver's. Making, listing,
 * reading and disabling them is here. The address and its sealed key are made as a PAYOUT's
 * (`ChainAdapter.createDepositAddress`, reference `standing:<id>`): a new keypair, never reused.
 */
import type { Static } from 'typebox';
import type { ChainAdapter } from '../../adapters/chain/port.ts';
import type { PixProvider } from '../../adapters/pix/port.ts';
import type { Db } from '../../db/database.ts';
import { AppError, invalidField, notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { validatePixKey } from '../../lib/pix-keys.ts';
import { checkPayoutKey } from '../orders/creation/destination-rules.ts';
import type { TradeRules } from '../quotes/service.ts';
import type { ReceiversService } from '../receivers/service.ts';
import { standingAddressesRepo as repo } from './repo.ts';
import type { CreateStandingAddressBody, StandingAddressSchema, StandingDepositSchema } from './schemas.ts';
import { type StandingAddressDepositRow, type StandingAddressRow, standingReference } from './tables.ts';
import { toJsonNumber } from '../../lib/money.ts';
import type { PersonalData } from '../../lib/personal-data.ts';

export type StandingAddress = Static<typeof StandingAddressSchema>;

type Opener = Pick<PersonalData, 'open'>;

/** The API's view of a row: its PIX key and recipient name opened (sealed at rest, sealed-columns.ts). */
export function toStandingAddress(row: StandingAddressRow, personalData: Opener): StandingAddress {
  return {
    id: row.id,
    receiverId: row.receiver_id,
    status: row.status,
    chain: row.chain,
    token: row.token,
    depositAddress: row.deposit_address,
    pixKey: personalData.open('account', row.pix_key),
    pixKeyType: row.pix_key_type as StandingAddress['pixKeyType'],
    recipientName: personalData.open('name', row.recipient_name),
    description: row.description,
    createdAt: row.created_at.toISOString(),
    disabledAt: row.disabled_at?.toISOString() ?? null,
  };
}

export type StandingDeposit = Static<typeof StandingDepositSchema>;

const toStandingDeposit = (row: StandingAddressDepositRow): StandingDeposit => ({
  signature: row.signature,
  amountCrypto: toJsonNumber(row.amount_token),
  token: row.token,
  status: row.status,
  holdReason: row.hold_reason,
  orderId: row.order_id,
  detectedAt: row.detected_at.toISOString(),
});

export interface StandingAddressesDeps {
  db: Db;
  clock: Clock;
  rules: TradeRules;
  receivers: Pick<ReceiversService, 'findForOrder'>;
  chain: Pick<ChainAdapter, 'createDepositAddress'>;
  pix: Pick<PixProvider, 'lookupPixKey'>;
  personalData: Pick<PersonalData, 'seal' | 'open'>;
}

/** The body's key in DICT form, or the receiver's document (a valid CPF or CNPJ key). */
function keyOf(body: Static<typeof CreateStandingAddressBody>, receiver: { document: string; documentType: string }) {
  if ((body.pixKey === undefined) !== (body.pixKeyType === undefined)) {
    throw invalidField(body.pixKey === undefined ? 'body.pixKey' : 'body.pixKeyType', 'pixKey and pixKeyType go together');
  }
  if (body.pixKey === undefined) return { key: receiver.document, type: receiver.documentType };
  const checked = validatePixKey(body.pixKeyType!, body.pixKey);
  if (!checked.ok) throw invalidField('body.pixKey', checked.reason);
  return { key: checked.normalized, type: body.pixKeyType! };
}

export function createStandingAddressesService(deps: StandingAddressesDeps) {
  const { db, clock, rules } = deps;
  const lookup = deps.pix.lookupPixKey?.bind(deps.pix);

  async function ownedReceiver(merchantId: string, receiverId: string) {
    const receiver = await deps.receivers.findForOrder(db, merchantId, receiverId);
    if (!receiver) throw notFound('Receiver');
    return receiver;
  }

  async function findOwned(merchantId: string, receiverId: string, id: string) {
    const row = await repo.find(db, merchantId, receiverId, id);
    if (!row) throw notFound('Standing deposit address');
    return row;
  }

  return {
    /**
     * A new address for a receiver that may take orders (KYC APPROVED, ACTIVE), paying a PIX key
     * of its own when the merchant's destination policy is RECEIVER_ONLY (asked last: it may be a
     * DICT lookup).
     */
    async create(merchantId: string, receiverId: string, body: Static<typeof CreateStandingAddressBody>): Promise<StandingAddress> {
      const chain = body.chain ?? 'solana';
      const token = body.sourceToken ?? 'USDC';
      rules.checkChain(chain);
      rules.tokenDecimals(token, 'body.sourceToken');
      const receiver = await ownedReceiver(merchantId, receiverId);
      const key = keyOf(body, receiver);
      if (receiver.kycStatus !== 'APPROVED') {
        throw new AppError('KYC_NOT_APPROVED', `Receiver KYC is ${receiver.kycStatus}; a standing deposit address needs APPROVED`, { kycStatus: receiver.kycStatus });
      }
      if (receiver.status !== 'ACTIVE') throw new AppError('RECEIVER_NOT_ACTIVE', `Receiver is ${receiver.status}; a standing deposit address needs ACTIVE`, { status: receiver.status });
      if ((await repo.destinationPolicy(db, merchantId)) === 'RECEIVER_ONLY') await checkPayoutKey(key, receiver, lookup);
      const id = newId();
      const { address } = await deps.chain.createDepositAddress({ orderId: standingReference(id), token });
      const row = await repo.insert(db, {
        id,
        merchant_id: merchantId,
        receiver_id: receiverId,
        chain,
        token,
        deposit_address: address,
        pix_key: deps.personalData.seal('account', key.key),
        pix_key_type: key.type,
        recipient_name: deps.personalData.seal('name', body.recipientName ?? receiver.name),
        description: body.description ?? null,
        created_at: clock.now(),
      });
      return toStandingAddress(row, deps.personalData);
    },

    async list(merchantId: string, receiverId: string): Promise<{ data: StandingAddress[] }> {
      await ownedReceiver(merchantId, receiverId);
      return { data: (await repo.listOfReceiver(db, merchantId, receiverId)).map((row) => toStandingAddress(row, deps.personalData)) };
    },

    get: async (merchantId: string, receiverId: string, id: string): Promise<StandingAddress> => toStandingAddress(await findOwned(merchantId, receiverId, id), deps.personalData),

    /** What arrived at the address, newest first: each with its PAYOUT, or held for review and why. */
    async deposits(merchantId: string, receiverId: string, id: string): Promise<{ data: StandingDeposit[] }> {
      await findOwned(merchantId, receiverId, id);
      return { data: (await repo.deposits(db, id)).map(toStandingDeposit) };
    },

    /** For the sandbox's deposit: the address's row. */
    findOwnedRow: findOwned,

    /** From now on a deposit to it makes no order. Disabling a disabled address answers it as it is. */
    async disable(merchantId: string, receiverId: string, id: string): Promise<StandingAddress> {
      const row = await findOwned(merchantId, receiverId, id);
      if (row.status === 'DISABLED') return toStandingAddress(row, deps.personalData);
      return toStandingAddress((await repo.disable(db, id, clock.now())) ?? (await findOwned(merchantId, receiverId, id)), deps.personalData);
    },
  };
}

export type StandingAddressesService = ReturnType<typeof createStandingAddressesService>;
