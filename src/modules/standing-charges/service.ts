/**
 * Standing PIX charges (issue 43, item 2; docs/decisions/0045-standing-pix-charges.md): a
 * receiver's static BR Code on the platform's PIX key, carrying the charge's own txid, paid any
 * number of times. Making, listing and disabling them is here; what a PIX paid to one does is in
 * payments.ts.
 */
import type { Static } from 'typebox';
import { newStaticTxid } from '../../adapters/pix/port.ts';
import type { PixSettings } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { AppError, notFound } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { decimal, toJsonNumber } from '../../lib/money.ts';
import { buildStaticPixCode } from '../../lib/pix-brcode.ts';
import type { TradeRules } from '../quotes/service.ts';
import type { ReceiversService } from '../receivers/service.ts';
import { standingChargesRepo as repo } from './repo.ts';
import type { CreateStandingChargeBody, StandingChargeSchema } from './schemas.ts';
import type { StandingChargeRow } from './tables.ts';

export type StandingCharge = Static<typeof StandingChargeSchema>;

export function toStandingCharge(row: StandingChargeRow): StandingCharge {
  return {
    id: row.id,
    receiverId: row.receiver_id,
    status: row.status,
    txid: row.txid,
    amountBrl: row.amount_brl === null ? null : toJsonNumber(row.amount_brl),
    chain: row.chain,
    token: row.token,
    destinationWallet: row.destination_wallet,
    description: row.description,
    pixCopiaECola: row.pix_copia_e_cola,
    createdAt: row.created_at.toISOString(),
    disabledAt: row.disabled_at?.toISOString() ?? null,
  };
}

export interface StandingChargesDeps {
  db: Db;
  clock: Clock;
  rules: TradeRules;
  receivers: Pick<ReceiversService, 'findForOrder'>;
  /** The platform's receiving account: its key, name and city are the code's. */
  pix: Pick<PixSettings, 'receivingKey' | 'merchantName' | 'merchantCity'>;
}

export function createStandingChargesService(deps: StandingChargesDeps) {
  const { db, clock, rules } = deps;

  /** The receiver, 404 when unknown or another merchant's. */
  async function ownedReceiver(merchantId: string, receiverId: string) {
    const receiver = await deps.receivers.findForOrder(db, merchantId, receiverId);
    if (!receiver) throw notFound('Receiver');
    return receiver;
  }

  async function findOwned(merchantId: string, receiverId: string, id: string) {
    const row = await repo.find(db, merchantId, receiverId, id);
    if (!row) throw notFound('Standing charge');
    return row;
  }

  return {
    /**
     * A new charge for a receiver that may take orders (KYC APPROVED, ACTIVE) and has a wallet:
     * its tokens go there. The night rule is not asked here: it is each PIX's, when it arrives.
     */
    async create(merchantId: string, receiverId: string, body: Static<typeof CreateStandingChargeBody>): Promise<StandingCharge> {
      const chain = body.chain ?? 'solana';
      const token = body.targetToken ?? 'USDC';
      rules.checkChain(chain);
      rules.tokenDecimals(token, 'body.targetToken');
      let amountBrl: string | null = null;
      if (body.amountBrl !== undefined) {
        rules.checkDecimals(body.amountBrl, 2, 'body.amountBrl');
        amountBrl = decimal(body.amountBrl).toFixed(2);
        rules.checkBrlRange(amountBrl, 'body.amountBrl');
      }
      const receiver = await ownedReceiver(merchantId, receiverId);
      if (receiver.kycStatus !== 'APPROVED') {
        throw new AppError('KYC_NOT_APPROVED', `Receiver KYC is ${receiver.kycStatus}; a standing charge needs APPROVED`, { kycStatus: receiver.kycStatus });
      }
      if (receiver.status !== 'ACTIVE') throw new AppError('RECEIVER_NOT_ACTIVE', `Receiver is ${receiver.status}; a standing charge needs ACTIVE`, { status: receiver.status });
      if (!receiver.walletAddress) throw new AppError('NO_RECEIVER_WALLET', 'The receiver has no wallet address: set one (or create a managed wallet) before a standing charge');
      const txid = newStaticTxid();
      const code = buildStaticPixCode({
        key: deps.pix.receivingKey,
        merchantName: deps.pix.merchantName,
        merchantCity: deps.pix.merchantCity,
        txid,
        ...(amountBrl === null ? {} : { amount: amountBrl }),
      });
      const row = await repo.insert(db, {
        id: newId(),
        merchant_id: merchantId,
        receiver_id: receiverId,
        txid,
        amount_brl: amountBrl,
        chain,
        token,
        destination_wallet: receiver.walletAddress,
        description: body.description ?? null,
        pix_copia_e_cola: code,
        created_at: clock.now(),
      });
      return toStandingCharge(row);
    },

    async list(merchantId: string, receiverId: string): Promise<{ data: StandingCharge[] }> {
      await ownedReceiver(merchantId, receiverId);
      return { data: (await repo.listOfReceiver(db, merchantId, receiverId)).map(toStandingCharge) };
    },

    get: async (merchantId: string, receiverId: string, id: string): Promise<StandingCharge> => toStandingCharge(await findOwned(merchantId, receiverId, id)),

    /** For the sandbox's "pay": the charge's row. */
    findOwnedRow: findOwned,

    /** From now on a PIX paid to the code is returned. Disabling a disabled charge answers it as it is. */
    async disable(merchantId: string, receiverId: string, id: string): Promise<StandingCharge> {
      const row = await findOwned(merchantId, receiverId, id);
      if (row.status === 'DISABLED') return toStandingCharge(row);
      return toStandingCharge((await repo.disable(db, id, clock.now())) ?? (await findOwned(merchantId, receiverId, id)));
    },
  };
}

export type StandingChargesService = ReturnType<typeof createStandingChargesService>;
