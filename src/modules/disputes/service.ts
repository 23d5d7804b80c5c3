/**
 * MED 2.0 fraud claims (issue 30, docs/architecture/disputes.md). The PSP reports infractions on
 * PIX we received (the sync job polls its MED extension; the sandbox drivers hand them over
 * directly); `handleInfraction` records each as a dispute and applies what its status calls for,
 * in one transaction with the order it names (locked first, as every order path does):
 * - opened: a PAYIN whose tokens have not left is held (orders/lifecycle/dispute-claims.ts); order.disputed;
 * - DEFENDED: dispute.updated (the merchant's defense went through `submitDefense`);
 * - ACCEPTED: the PIX goes back with natureza MED_FRAUDE: through the order when it still holds
 *   the money (it ends REFUNDED), else, tokens gone and the order COMPLETED, from the platform's
 *   account, charged back to the merchant in the ledger and requested by the job (`runDue`);
 *   an order still moving (TRANSFERRING, REFUNDING) is looked at again until it ends;
 * - REJECTED, CANCELLED: a held order goes on.
 */
import type { PixInfraction, PixInfractions, PixProvider } from '../../adapters/pix/port.ts';
import { PixDefenseRefusedError } from '../../adapters/pix/port.ts';
import type { Db, Trx } from '../../db/database.ts';
import { AppError, notFound, providerUnavailable } from '../../errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { toFixedText } from '../../lib/money.ts';
import { inTransaction, withinOrNew } from '../../platform/commit-signals.ts';
import { recordEvent } from '../../platform/outbox.ts';
import type { LedgerService } from '../ledger/service.ts';
import { type RegisterSealing, registerMovement } from '../operations-register/record.ts';
import type { OrderDisputeClaims } from '../orders/lifecycle/dispute-claims.ts';
import type { OrderRow } from '../orders/tables.ts';
import { DISPUTE_RESOLVED, DISPUTE_UPDATED, ORDER_DISPUTED, disputeEvent } from './events.ts';
import { type DisputeFilter, type DisputeRow, disputesRepo as repo } from './repo.ts';
import { canMove, isResolved } from './state-machine.ts';
import type { DisputeDefense, DisputeOutcome, DisputeStatus, DisputesTable } from './tables.ts';
import type { Updateable } from 'kysely';

export interface DisputesDeps {
  db: Db;
  clock: Clock;
  pix: PixInfractions & Pick<PixProvider, 'refund' | 'getRefund'>;
  claims: OrderDisputeClaims;
  ledger: Pick<LedgerService, 'postDisputeMovement'>;
  /** Seals what the operations register is given clear. */
  personalData: RegisterSealing;
}

/** How long a claimed dispute is the claimer's, and how soon an accepted claim on a moving order is looked at again. */
const LEASE_MS = 60_000;
const RECHECK_MS = 30_000;
/** How often a MED return under way is read back from the PSP, in case its notification was lost. */
const RETURN_RECHECK_MS = 5 * 60_000;
/** The PSP's justification field: the defense's text and its evidence, within a size every PSP takes. */
const MAX_JUSTIFICATION = 2000;
/** The sync reads at least the last day of infractions, and back to the oldest claim still open. */
const SYNC_LOOKBACK_MS = 86_400_000;

/** The return id of an accepted claim (API Pix devolução id: [a-zA-Z0-9]{1,35}). */
const returnIdOf = (disputeId: string) => `M${disputeId.replaceAll('-', '')}`;

/** What the PSP gets as the justification: the text, then each piece of evidence on its line. */
export function justificationText(defense: DisputeDefense): string {
  const lines = defense.evidence.map((item, i) => `[${i + 1}] ${item.description}${item.url ? ` ${item.url}` : ''}${item.sha256 ? ` sha256:${item.sha256}` : ''}`);
  return [defense.justification, ...lines].join('\n').slice(0, MAX_JUSTIFICATION);
}

export function createDisputesService(deps: DisputesDeps) {
  const { db, clock, pix, claims, ledger } = deps;

  async function emit(trx: Trx, name: string, dispute: DisputeRow, order: OrderRow) {
    // The dispute's row is locked by the caller's transaction: events are numbered in commit order.
    await recordEvent(trx, disputeEvent(name, dispute, order, await repo.nextEventSequence(trx, dispute.id), clock.now()));
  }

  /**
   * An accepted claim's effect on its order, if it can be decided now: the changes to the dispute
   * (outcome, return, next look), posting the chargeback where the tokens had left.
   */
  async function acceptance(trx: Trx, dispute: DisputeRow, order: OrderRow): Promise<Updateable<DisputesTable>> {
    const now = clock.now();
    const returnId = returnIdOf(dispute.id);
    if (claims.canReturn(order)) {
      await claims.returnPix(trx, order, returnId);
      return { outcome: 'ORDER_REFUNDED', return_id: returnId, return_status: 'PENDING', next_step_at: null };
    }
    if (order.status === 'COMPLETED') {
      await ledger.postDisputeMovement(trx, { disputeId: dispute.id, merchantId: dispute.merchant_id, amountBrl: dispute.amount_brl, at: now }, 'DISPUTE_CHARGEBACK');
      return { outcome: 'CHARGED_BACK', return_id: returnId, return_status: 'PENDING', next_step_at: now };
    }
    if (order.status === 'REFUNDED') return { outcome: 'ALREADY_REFUNDED', next_step_at: null };
    // Still moving (TRANSFERRING, REFUNDING): where the money ends is not known yet.
    return { outcome: null, next_step_at: new Date(now.getTime() + RECHECK_MS) };
  }

  /** The claim ended with `status`: what it does to the order, and dispute.resolved. */
  async function resolve(trx: Trx, dispute: DisputeRow, order: OrderRow, status: DisputeStatus): Promise<DisputeRow | undefined> {
    const now = clock.now();
    let changes: Updateable<DisputesTable>;
    if (status === 'ACCEPTED') {
      changes = await acceptance(trx, dispute, order);
    } else {
      const stillClaimed = await repo.otherUnresolved(trx, order.id, dispute.id);
      if (order.dispute_hold && !stillClaimed) await claims.release(trx, order);
      changes = { outcome: (dispute.order_held ? 'RELEASED' : 'NO_EFFECT') satisfies DisputeOutcome };
    }
    const resolved = await repo.move(trx, dispute.id, dispute.status, { ...changes, status, resolved_at: now, updated_at: now });
    if (resolved) await emit(trx, DISPUTE_RESOLVED, resolved, await claims.lockByEndToEndId(trx, dispute.end_to_end_id).then((o) => o ?? order));
    return resolved;
  }

  /** A new claim: recorded, its order held if its tokens have not left, order.disputed. */
  async function open(trx: Trx, infraction: PixInfraction, order: OrderRow): Promise<DisputeRow> {
    const now = clock.now();
    const held = await claims.hold(trx, order);
    const inserted = await repo.insert(trx, {
      id: newId(),
      merchant_id: order.merchant_id,
      order_id: order.id,
      psp_infraction_id: infraction.infractionId,
      end_to_end_id: infraction.endToEndId,
      status: 'OPEN',
      reason: infraction.reason.slice(0, 1000) || 'MED claim',
      amount_brl: infraction.amountBrl,
      reported_at: infraction.reportedAt,
      defense_deadline: infraction.defenseDeadline,
      order_held: held || order.dispute_hold,
      created_at: now,
      updated_at: now,
    });
    // Recorded by another transaction first (the order's lock serialises them): the sync and a driver raced.
    if (!inserted) return (await repo.lockBy(trx, 'psp_infraction_id', infraction.infractionId))!;
    await emit(trx, ORDER_DISPUTED, inserted, order);
    return inserted;
  }

  /**
   * The single entry point of the PSP's infractions (the sync job, the sandbox drivers): applies
   * the reported status if it moves the claim forward; repeats and stale reports change nothing.
   * Answers the dispute, or undefined when the PIX paid no order of ours.
   */
  function handleInfraction(infraction: PixInfraction, outer?: Trx): Promise<DisputeRow | undefined> {
    return withinOrNew(db, outer, async (trx) => {
      const order = await claims.lockByEndToEndId(trx, infraction.endToEndId);
      if (!order) return undefined;
      const dispute = (await repo.lockBy(trx, 'psp_infraction_id', infraction.infractionId)) ?? (await open(trx, infraction, order));
      if (infraction.status === dispute.status || !canMove(dispute.status, infraction.status)) return dispute;
      if (isResolved(infraction.status)) return (await resolve(trx, dispute, order, infraction.status)) ?? dispute;
      const now = clock.now();
      const moved = await repo.move(trx, dispute.id, dispute.status, { status: infraction.status, defended_at: dispute.defended_at ?? now, updated_at: now });
      if (moved) await emit(trx, DISPUTE_UPDATED, moved, order);
      return moved ?? dispute;
    });
  }

  /** The merchant's defense (POST /disputes/{id}/defense): taken by the PSP before the deadline, then DEFENDED. */
  async function submitDefense(merchantId: string, disputeId: string, defense: DisputeDefense) {
    const dispute = await repo.find(db, disputeId, merchantId);
    if (!dispute) throw notFound('Dispute');
    if (dispute.status !== 'OPEN') {
      throw new AppError('DISPUTE_NOT_OPEN', `The claim is ${dispute.status}: a defense is taken only while it is OPEN`, { status: dispute.status });
    }
    if (clock.now() >= dispute.defense_deadline) {
      throw new AppError('DEFENSE_DEADLINE_PASSED', `The defense deadline passed at ${dispute.defense_deadline.toISOString()}`, { defenseDeadline: dispute.defense_deadline.toISOString() });
    }
    try {
      await pix.submitInfractionDefense({ infractionId: dispute.psp_infraction_id, justification: justificationText(defense) });
    } catch (err) {
      if (err instanceof PixDefenseRefusedError) {
        throw Object.assign(new AppError('DISPUTE_NOT_OPEN', 'The PSP no longer takes a defense of this claim (decided, or its deadline passed)', { status: dispute.status }), { cause: err });
      }
      throw providerUnavailable('The PSP did not take the defense; retry later', err);
    }
    await inTransaction(db, async (trx) => {
      const order = await claims.lockByEndToEndId(trx, dispute.end_to_end_id);
      const now = clock.now();
      const moved = await repo.move(trx, dispute.id, 'OPEN', { status: 'DEFENDED', defense: JSON.stringify(defense), defended_at: now, updated_at: now });
      if (moved && order) await emit(trx, DISPUTE_UPDATED, moved, order);
      // Moved by a report meanwhile (the PSP's sync saw EM_DEFESA first): keep the defense with it.
      if (!moved) await repo.update(trx, dispute.id, { defense: JSON.stringify(defense), updated_at: now });
    });
    return (await repo.find(db, disputeId, merchantId))!;
  }

  /**
   * A settled refund that is one of our returns (orders/lifecycle/notifications.ts calls this for every one,
   * in its transaction): records it, and a charged-back claim's return posts what left pix_cash.
   */
  async function returnSettled(trx: Trx, notification: { refundId: string; status: 'DEVOLVIDO' | 'NAO_REALIZADO' }): Promise<boolean> {
    const dispute = await repo.lockBy(trx, 'return_id', notification.refundId);
    if (!dispute) return false;
    if (dispute.return_status === 'DEVOLVIDO' || dispute.return_status === 'NAO_REALIZADO') return true;
    const now = clock.now();
    const updated = await repo.update(trx, dispute.id, { return_status: notification.status, next_step_at: null, updated_at: now });
    const order = await claims.lockByEndToEndId(trx, dispute.end_to_end_id);
    if (notification.status === 'DEVOLVIDO' && dispute.outcome === 'CHARGED_BACK') {
      await ledger.postDisputeMovement(trx, { disputeId: dispute.id, merchantId: dispute.merchant_id, amountBrl: dispute.amount_brl, at: now }, 'DISPUTE_RETURNED');
      // The PIX went back from the platform's account: the register's PIX_REFUND of the order (a
      // COMPLETED order has no other), named by the return's id. A returned order registers its own.
      if (order) await registerMovement(trx, deps.personalData, { ...order, refund_id: dispute.return_id }, { type: 'PIX_REFUND', amount: toFixedText(dispute.amount_brl, 2), txHash: dispute.end_to_end_id }, now);
    }
    if (order) await emit(trx, DISPUTE_UPDATED, updated, order);
    return true;
  }

  /** One due dispute: an accepted claim whose order has since ended, or a charged-back return to request. */
  async function runOne(claimed: DisputeRow): Promise<void> {
    if (claimed.status === 'ACCEPTED' && claimed.outcome === null) {
      await inTransaction(db, async (trx) => {
        const order = await claims.lockByEndToEndId(trx, claimed.end_to_end_id);
        const dispute = await repo.lockBy(trx, 'id', claimed.id);
        if (!order || !dispute || dispute.outcome !== null) return;
        const changes = await acceptance(trx, dispute, order);
        const updated = await repo.update(trx, dispute.id, { ...changes, updated_at: clock.now() });
        if (updated.outcome) await emit(trx, DISPUTE_UPDATED, updated, order);
      });
      return;
    }
    if (claimed.outcome === 'CHARGED_BACK' && claimed.return_status === 'PENDING') {
      // Idempotent per return id at the PSP: a retry after a crash asks for the same devolução.
      await pix.refund({
        endToEndId: claimed.end_to_end_id,
        refundId: claimed.return_id!,
        amountBrl: toFixedText(claimed.amount_brl, 2),
        description: 'Devolução MED: fraude confirmada',
        nature: 'MED_FRAUDE',
      });
      // Taken by the PSP (whatever state it answered): its outcome comes by notification, or by the read-back below.
      await db
        .updateTable('disputes')
        .set({ return_status: 'EM_PROCESSAMENTO', next_step_at: new Date(clock.now().getTime() + RETURN_RECHECK_MS), updated_at: clock.now() })
        .where('id', '=', claimed.id)
        .where('return_status', '=', 'PENDING')
        .execute();
      return;
    }
    if (claimed.outcome === 'CHARGED_BACK' && claimed.return_status === 'EM_PROCESSAMENTO') {
      // The notification may have been lost: the PSP's own record of the return settles it as one would.
      const state = await pix.getRefund(claimed.end_to_end_id, claimed.return_id!);
      if (state && state.status !== 'EM_PROCESSAMENTO') {
        await inTransaction(db, async (trx) => {
          await claims.lockByEndToEndId(trx, claimed.end_to_end_id);
          await returnSettled(trx, { refundId: claimed.return_id!, status: state.status });
        });
      } else {
        await db.updateTable('disputes').set({ next_step_at: new Date(clock.now().getTime() + RETURN_RECHECK_MS) }).where('id', '=', claimed.id).execute();
      }
      return;
    }
    await db.updateTable('disputes').set({ next_step_at: null }).where('id', '=', claimed.id).execute();
  }

  return {
    handleInfraction,
    submitDefense,
    returnSettled,

    /** Runs every due dispute once (the disputes job, tests); a failure leaves it for its lease to lapse. Answers how many it ran. */
    async runDue(limit = 50): Promise<number> {
      const due = await repo.claimDue(db, clock.now(), limit, LEASE_MS);
      for (const dispute of due) await runOne(dispute);
      return due.length;
    },

    /** Reads the PSP's infractions since the oldest open claim (at least a day back) and applies each. */
    async syncWithPsp(): Promise<number> {
      const now = clock.now();
      const oldest = await repo.oldestUnresolved(db);
      const from = new Date(Math.min(now.getTime() - SYNC_LOOKBACK_MS, oldest?.getTime() ?? Infinity));
      const infractions = await pix.listInfractions({ from, to: now });
      for (const infraction of infractions) await handleInfraction(infraction);
      return infractions.length;
    },

    list: (filter: DisputeFilter, page: { page: number; pageSize: number }) => repo.list(db, filter, { offset: (page.page - 1) * page.pageSize, limit: page.pageSize }),

    async get(id: string, merchantId?: string) {
      const dispute = await repo.find(db, id, merchantId);
      if (!dispute) throw notFound('Dispute');
      return dispute;
    },
  };
}

export type DisputesService = ReturnType<typeof createDisputesService>;
