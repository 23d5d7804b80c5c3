/**
 * The sandbox PSP's MED extension (port.ts PixInfractions), modelled on Efí's `/v2/gn/infracoes`:
 * the drivers play the payer's PSP, which opens an infraction on a PIX we received, and the
 * receiving PSP, which decides it (ACEITA, REJEITADA) or sees it withdrawn (CANCELADA). A
 * defense moves an ABERTA infraction to EM_DEFESA, only before its deadline.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import type { Clock } from '../../lib/clock.ts';
import { decimal, toFixedText } from '../../lib/money.ts';
import { type PixInfraction, type PixInfractionStatus, type PixInfractions, PixDefenseRefusedError } from './port.ts';
import type { SandboxInfractionStatus, SandboxPixInfractionsTable } from './sandbox-tables.ts';
import type { Selectable } from 'kysely';
import { SANDBOX_PIX_INFRACTION_COLUMNS } from './sandbox-tables.ts';

/** Efí's names of an infraction's statuses, and ours. */
const STATUS: Record<SandboxInfractionStatus, PixInfractionStatus> = {
  ABERTA: 'OPEN',
  EM_DEFESA: 'DEFENDED',
  ACEITA: 'ACCEPTED',
  REJEITADA: 'REJECTED',
  CANCELADA: 'CANCELLED',
};

/** How a claim ends at the receiving PSP. */
export type SandboxInfractionOutcome = 'ACCEPTED' | 'REJECTED' | 'CANCELLED';
const OUTCOME: Record<SandboxInfractionOutcome, SandboxInfractionStatus> = { ACCEPTED: 'ACEITA', REJECTED: 'REJEITADA', CANCELLED: 'CANCELADA' };

/** MED 2.0 gives the receiving side days, not hours; the sandbox's default for a defense. */
const DEFAULT_DEFENSE_HOURS = 72;

export class SandboxInfractionError extends Error {
  readonly kind: 'NOT_FOUND' | 'CONFLICT';
  constructor(kind: 'NOT_FOUND' | 'CONFLICT', message: string) {
    super(message);
    this.kind = kind;
    this.name = 'SandboxInfractionError';
  }
}

const toInfraction = (row: Selectable<SandboxPixInfractionsTable>): PixInfraction => ({
  infractionId: row.infraction_id,
  endToEndId: row.end_to_end_id,
  status: STATUS[row.status],
  reason: row.reason,
  amountBrl: toFixedText(row.amount_brl, 2),
  reportedAt: row.created_at,
  defenseDeadline: row.defense_deadline,
});

export interface SandboxInfractions extends PixInfractions {
  /** The payer's PSP opens a claim on a PIX received (by default for its whole amount). */
  openInfraction(input: { endToEndId: string; receivedBrl: string; reason?: string; amountBrl?: string; defenseHours?: number }): Promise<PixInfraction>;
  /** The receiving PSP decides an open or defended claim (or the payer's PSP withdraws it). */
  decideInfraction(infractionId: string, outcome: SandboxInfractionOutcome): Promise<PixInfraction>;
}

export function createSandboxInfractions(deps: { db: Db; clock: Clock }): SandboxInfractions {
  const { db, clock } = deps;
  const find = (infractionId: string) => db.selectFrom('sandbox_pix_infractions').select(SANDBOX_PIX_INFRACTION_COLUMNS).where('infraction_id', '=', infractionId).executeTakeFirst();

  return {
    async listInfractions({ from, to }) {
      const rows = await db.selectFrom('sandbox_pix_infractions').select(SANDBOX_PIX_INFRACTION_COLUMNS).where('created_at', '>=', from).where('created_at', '<=', to).orderBy('created_at').execute();
      return rows.map(toInfraction);
    },

    async submitInfractionDefense({ infractionId, justification }) {
      const now = clock.now();
      const updated = await db
        .updateTable('sandbox_pix_infractions')
        .set({ status: 'EM_DEFESA', justification, updated_at: now })
        .where('infraction_id', '=', infractionId)
        .where('status', '=', 'ABERTA')
        .where('defense_deadline', '>', now)
        .returning('infraction_id')
        .executeTakeFirst();
      if (updated) return;
      const row = await find(infractionId);
      if (!row) throw new PixDefenseRefusedError(`sandbox PSP: infraction ${infractionId} not found`);
      // A repeat of the same defense is answered as the first was.
      if (row.status === 'EM_DEFESA' && row.justification === justification) return;
      throw new PixDefenseRefusedError(`sandbox PSP: infraction ${infractionId} is ${row.status}${row.defense_deadline <= now ? ', its deadline passed' : ''}`);
    },

    async openInfraction({ endToEndId, receivedBrl, reason, amountBrl, defenseHours }) {
      const amount = decimal(amountBrl ?? receivedBrl);
      if (amount.lte(0) || amount.gt(receivedBrl)) throw new SandboxInfractionError('CONFLICT', `a claim must be of more than 0 and at most the ${toFixedText(receivedBrl, 2)} BRL received`);
      const now = clock.now();
      const row = await db
        .insertInto('sandbox_pix_infractions')
        .values({
          infraction_id: `INF${randomBytes(12).toString('hex').toUpperCase()}`,
          end_to_end_id: endToEndId,
          status: 'ABERTA',
          reason: reason ?? 'Fraude: o pagador não reconhece a transação (golpe)',
          amount_brl: amount.toFixed(2),
          defense_deadline: new Date(now.getTime() + (defenseHours ?? DEFAULT_DEFENSE_HOURS) * 3_600_000),
          created_at: now,
          updated_at: now,
        })
        .returning(SANDBOX_PIX_INFRACTION_COLUMNS)
        .executeTakeFirstOrThrow();
      return toInfraction(row);
    },

    async decideInfraction(infractionId, outcome) {
      const updated = await db
        .updateTable('sandbox_pix_infractions')
        .set({ status: OUTCOME[outcome], updated_at: clock.now() })
        .where('infraction_id', '=', infractionId)
        .where('status', 'in', ['ABERTA', 'EM_DEFESA'])
        .returning(SANDBOX_PIX_INFRACTION_COLUMNS)
        .executeTakeFirst();
      if (updated) return toInfraction(updated);
      const row = await find(infractionId);
      if (!row) throw new SandboxInfractionError('NOT_FOUND', `sandbox PSP: infraction ${infractionId} not found`);
      throw new SandboxInfractionError('CONFLICT', `sandbox PSP: infraction ${infractionId} is already ${row.status}`);
    },
  };
}
