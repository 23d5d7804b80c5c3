/**
 * The sandbox drivers: act as the customer's bank, the merchant's wallet and the receiving
 * banks, then hand each outcome to the same orders entry points a real provider would reach.
 */
import type { SandboxChain } from '../../adapters/chain/sandbox.ts';
import { ChainTransferRefusedError } from '../../adapters/chain/port.ts';
import { DepositorUnfundedError, type SandboxDepositor } from '../../adapters/chain/solana-sandbox-depositor.ts';
import { inTransaction } from '../../platform/commit-signals.ts';
import type { SandboxPixProvider } from '../../adapters/pix/sandbox.ts';
import type { Db } from '../../db/database.ts';
import type { OrderRow } from '../orders/tables.ts';
import { AppError, invalidField, providerUnavailable } from '../../errors.ts';
import { ChainUnavailableError } from '../../adapters/chain/transactions-port.ts';
import type { PixKeyType, PixPayer } from '../../adapters/pix/port.ts';
import { SandboxDictRefusal } from '../../adapters/pix/sandbox-dict.ts';
import type { Clock } from '../../lib/clock.ts';
import { decimal } from '../../lib/money.ts';
import { isValidCnpj, isValidCpf, normalizeDocument } from '../../lib/br-documents.ts';
import type { OrderNotifications } from '../orders/lifecycle/notifications.ts';
import type { OrdersService } from '../orders/service.ts';
import { heldPayoutKeys } from '../orders/lifecycle/test-hold.ts';

/** A payer named to the sandbox "pay": a valid CPF or CNPJ (digits or formatted) and a name. */
export function sandboxPayer(input: { document: string; name: string }): PixPayer {
  const document = normalizeDocument(input.document);
  if (isValidCpf(document)) return { documentType: 'CPF', document, name: input.name };
  if (isValidCnpj(document)) return { documentType: 'CNPJ', document, name: input.name };
  throw invalidField('body.payer.document', 'must be a valid CPF or CNPJ');
}

export type FailStep = 'CHAIN_TRANSFER' | 'PIX_PAYOUT' | 'PIX_REFUND';

/**
 * Failure injection scheduled ahead (issue 15): the statuses from which each step is still to
 * come, so arming it cannot race the step (the worker runs it ~10 ms after the money arrives).
 */
const ARMABLE: Record<FailStep, { type: 'PAYIN' | 'PAYOUT'; statuses: string[]; action: string }> = {
  // The token transfer (SWAPPING's step) has not been made yet.
  CHAIN_TRANSFER: { type: 'PAYIN', statuses: ['AWAITING_PAYMENT', 'PAYMENT_RECEIVED', 'SWAPPING'], action: 'arm the transfer failure of' },
  // The sandbox bank has not settled the PIX yet.
  PIX_PAYOUT: { type: 'PAYOUT', statuses: ['AWAITING_DEPOSIT', 'DEPOSIT_RECEIVED', 'PIX_SENDING', 'PIX_SENT_UNCONFIRMED'], action: 'arm the PIX failure of' },
  // Any PAYIN that may still be refunded (a late PIX refunds an EXPIRED one).
  PIX_REFUND: {
    type: 'PAYIN',
    statuses: ['AWAITING_PAYMENT', 'PAYMENT_RECEIVED', 'SWAPPING', 'TRANSFERRING', 'EXPIRED', 'REFUNDING'],
    action: 'arm the refund failure of',
  },
};

/** An armed failure, as the API answers it. */
export interface FailureInjection {
  orderId: string;
  step: FailStep;
  reason: string;
  armedAt: string;
}

export function createSandboxDriver(deps: {
  db: Db;
  clock: Clock;
  pix: SandboxPixProvider;
  chain: SandboxChain;
  notifications: Pick<OrderNotifications, 'handlePixNotification' | 'handleChainDeposit'>;
  orders: Pick<OrdersService, 'findOwnedRow' | 'get' | 'awaitingCreatedBefore'>;
  autoCompleteSeconds: number;
  /** With CHAIN_PROVIDER=solana-rpc: deposits are real transfers from this wallet, found by the deposit watcher. */
  depositor?: SandboxDepositor;
  /** Test-only (main.ts, NODE_ENV=test): the bank leaves unsettled the PIX of an order held at PIX_SENT_UNCONFIRMED (orders/lifecycle/test-hold.ts). */
  holdOrders?: true;
}) {
  const { pix, chain, notifications, orders } = deps;

  const expect = (order: OrderRow, type: 'PAYIN' | 'PAYOUT', statuses: string[], action: string) => {
    if (order.type !== type) throw new AppError('VALIDATION_ERROR', `${action} applies to ${type} orders only`, { 'params.id': `is a ${order.type} order` });
    if (!statuses.includes(order.status)) throw new AppError('CONFLICT', `Cannot ${action} an order in ${order.status}`, { status: order.status });
  };

  async function pay(order: OrderRow, amountBrl?: string, payer?: PixPayer | null) {
    const notification = await pix.simulateChargePayment(order.pix_txid!, { ...(amountBrl ? { amountBrl } : {}), ...(payer !== undefined ? { payer } : {}) });
    await notifications.handlePixNotification(notification);
  }

  async function deposit(order: OrderRow, amount?: string) {
    const detected = await chain.simulateDeposit({ depositAddress: order.deposit_address!, amount: amount ?? order.amount_token });
    await notifications.handleChainDeposit(detected);
  }

  return {
    /**
     * The customer pays the order's PIX charge (by default exactly its amount, from the receiver:
     * the charge's devedor). `payer`: a third party paying (its CPF or CNPJ, checked); null: the
     * PSP does not report who paid.
     */
    async payOrder(merchantId: string, orderId: string, amountBrl?: number | string, payer?: { document: string; name: string } | null) {
      const order = await orders.findOwnedRow(merchantId, orderId);
      expect(order, 'PAYIN', ['AWAITING_PAYMENT', 'EXPIRED'], 'pay');
      await pay(order, amountBrl === undefined ? undefined : decimal(amountBrl).toFixed(2), payer && sandboxPayer(payer));
      return orders.get(merchantId, orderId);
    },

    /** Whether a deposit is a real transfer the watcher will find (sendDeposit), or the sandbox chain's, applied at once (depositForOrder). */
    depositsOnChain: deps.depositor !== undefined,

    /** The sandbox depositor's address and balances (CHAIN_PROVIDER=solana-rpc only). */
    async depositorBalance(token: string) {
      if (!deps.depositor) throw new AppError('NOT_FOUND', 'The sandbox chain has no depositor: deposits are applied at once (CHAIN_PROVIDER=sandbox)');
      try {
        return await deps.depositor.balanceOf(token);
      } catch (err) {
        // No mint configured for it (CHAIN_TOKEN_MINTS), or not a mint on this cluster.
        if (err instanceof ChainTransferRefusedError) throw invalidField('querystring.token', err.message);
        if (err instanceof ChainUnavailableError) throw providerUnavailable('The chain did not answer; retry later', err);
        throw err;
      }
    },

    /**
     * The deposit as a real SPL transfer from the sandbox depositor to the order's deposit address:
     * answered once the node accepted it; the deposit watcher credits it once final, like any other.
     */
    async sendDeposit(merchantId: string, orderId: string, amountCrypto?: number | string) {
      const depositor = deps.depositor!;
      const order = await orders.findOwnedRow(merchantId, orderId);
      expect(order, 'PAYOUT', ['AWAITING_DEPOSIT'], 'deposit for');
      const amount = amountCrypto === undefined ? decimal(order.amount_token).toString() : decimal(amountCrypto).toString();
      try {
        const sent = await depositor.deposit({ reference: order.id, token: order.token, amount, destination: order.deposit_address! });
        return { orderId: order.id, depositAddress: order.deposit_address!, depositor: depositor.address, token: order.token, amount, signature: sent.signature, status: 'SENT' as const };
      } catch (err) {
        // A node that fails (or a faucet that refuses) is the provider's, never a 500.
        if (err instanceof ChainUnavailableError) throw providerUnavailable('The chain did not take the sandbox deposit; retry later', err);
        if (!(err instanceof DepositorUnfundedError)) throw err;
        throw new AppError('SANDBOX_DEPOSITOR_UNFUNDED', `The sandbox depositor holds ${err.balance.amount} ${order.token}, less than ${amount}: fund ${depositor.address} (mint-to on the chain simulator)`, {
          depositor: depositor.address,
          token: order.token,
          balance: err.balance.amount,
          needed: amount,
        });
      }
    },

    /** The merchant's deposit arrives at the order's address (by default exactly amountCrypto). */
    async depositForOrder(merchantId: string, orderId: string, amountCrypto?: number | string) {
      const order = await orders.findOwnedRow(merchantId, orderId);
      expect(order, 'PAYOUT', ['AWAITING_DEPOSIT'], 'deposit for');
      await deposit(order, amountCrypto === undefined ? undefined : decimal(amountCrypto).toString());
      return orders.get(merchantId, orderId);
    },

    /** Makes one step fail: the next chain transfer, the sent PIX, or the refund. */
    async failOrder(merchantId: string, orderId: string, step: FailStep, reason: string) {
      const order = await orders.findOwnedRow(merchantId, orderId);
      if (step === 'CHAIN_TRANSFER') {
        expect(order, 'PAYIN', ['AWAITING_PAYMENT', 'PAYMENT_RECEIVED', 'SWAPPING'], 'fail the transfer of');
        // Keyed by the order (its id is the transfer's idempotency key), not by the receiver's wallet.
        await chain.failTransferWithKey(order.id, reason);
      } else if (step === 'PIX_PAYOUT') {
        expect(order, 'PAYOUT', ['PIX_SENT_UNCONFIRMED'], 'fail the PIX of');
        await notifications.handlePixNotification(await pix.failPayout(order.provider_transaction_id!, reason));
      } else {
        expect(order, 'PAYIN', ['REFUNDING'], 'fail the refund of');
        if (!order.refund_id) throw new AppError('CONFLICT', 'The refund has not been requested yet; retry in a moment', {});
        await notifications.handlePixNotification(await pix.failRefund(order.refund_id, reason));
      }
      return orders.get(merchantId, orderId);
    },

    /**
     * Arms a step's failure ahead of time; it fires when the order reaches the step, whatever
     * the timing: CHAIN_TRANSFER (the PAYIN's token transfer lands FAILED → REFUNDING),
     * PIX_PAYOUT (the PAYOUT's PIX is refused when the sandbox bank settles it → FAILED),
     * PIX_REFUND (the PAYIN's refund comes back NAO_REALIZADO → FAILED).
     */
    async armFailure(merchantId: string, orderId: string, step: FailStep, reason: string): Promise<FailureInjection> {
      const order = await orders.findOwnedRow(merchantId, orderId);
      const rule = ARMABLE[step];
      expect(order, rule.type, rule.statuses, rule.action);
      // Keyed by what the sandbox provider sees of this order: the transfer's and the payout's
      // idempotency key is the order id; the refund is of the PIX that paid the order's charge.
      if (step === 'CHAIN_TRANSFER') await chain.failTransferWithKey(order.id, reason);
      else if (step === 'PIX_PAYOUT') await pix.armFailure('PAYOUT', order.id, reason);
      else await pix.armFailure('REFUND', order.pix_txid!, reason);
      return { orderId: order.id, step, reason, armedAt: deps.clock.now().toISOString() };
    },

    /** Registers (or moves) a non-document PIX key in the sandbox PSP's DICT, for its key lookup. */
    async registerPixKey(input: { key: string; keyType: PixKeyType; document: string }) {
      try {
        return await pix.registerPixKey(input);
      } catch (err) {
        if (err instanceof SandboxDictRefusal) throw invalidField(`body.${err.field}`, err.message);
        throw err;
      }
    },

    /**
     * One pass of the sandbox "banks": settle sent PIX and refunds, and, when configured, pay
     * or deposit for orders older than SANDBOX_AUTO_COMPLETE_SECONDS (demos).
     */
    async settlePass() {
      // Marked as reported and applied in one transaction: a crash loses neither.
      await inTransaction(deps.db, async (trx) => {
        const skip = deps.holdOrders ? await heldPayoutKeys(trx) : undefined;
        for (const notification of [...(await pix.settlePayouts({ db: trx, ...(skip ? { skip } : {}) })), ...(await pix.settleRefunds({ db: trx }))]) {
          await notifications.handlePixNotification(notification, trx);
        }
      });
      if (deps.autoCompleteSeconds <= 0) return;
      const before = new Date(deps.clock.now().getTime() - deps.autoCompleteSeconds * 1000);
      const due = await orders.awaitingCreatedBefore(before, 50);
      // On chain a deposit is a transfer the watcher finds later: sending one per pass would pay the order again and again.
      for (const order of due) {
        if (order.type === 'PAYIN') await pay(order);
        else if (!deps.depositor) await deposit(order);
      }
    },
  };
}

export type SandboxDriver = ReturnType<typeof createSandboxDriver>;
