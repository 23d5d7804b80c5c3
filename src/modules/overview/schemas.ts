/** GET /overview: the dashboard's first page. Sums are BRL as decimal text (exact, never a float). */
import { Type } from 'typebox';
import { Nullable, OrderTypeField, StrictObject, Timestamp, Uuid } from '../../http/schemas.ts';

export const MAX_OVERVIEW_DAYS = 90;

export const OverviewQuery = StrictObject({
  days: Type.Integer({ minimum: 1, maximum: MAX_OVERVIEW_DAYS, default: 30, description: `The period: today and the days before it, São Paulo calendar days; at most ${MAX_OVERVIEW_DAYS}` }),
});

const BrlText = (description: string) => Type.String({ pattern: '^-?\\d+\\.\\d{2}$', description: `${description}; BRL as decimal text with 2 decimals` });

export const DayVolumeSchema = Type.Object(
  {
    day: Type.String({ format: 'date', description: 'São Paulo calendar day of createdAt' }),
    type: OrderTypeField,
    count: Type.Integer({ description: 'Orders created that day' }),
    amountBrl: BrlText('Their amountBrl summed'),
    completedCount: Type.Integer({ description: 'Of these, the COMPLETED ones' }),
    completedAmountBrl: BrlText('Their amountBrl summed'),
  },
  { title: 'OverviewDayVolume' },
);

export const StatusCountSchema = Type.Object({ status: Type.String(), count: Type.Integer() }, { title: 'OverviewStatusCount' });

export const AttentionEndpointSchema = Type.Object(
  {
    id: Uuid(),
    url: Type.String(),
    enabled: Type.Boolean(),
    failingSince: Nullable(Timestamp('The first failed attempt after the last success')),
    disabledReason: Nullable(Type.String({ description: 'Why the platform disabled it; null when enabled, or disabled by you' })),
  },
  { title: 'OverviewWebhookEndpoint' },
);

export const OverviewSchema = Type.Object(
  {
    days: Type.Integer(),
    from: Type.String({ format: 'date', description: 'First day of the period (São Paulo)' }),
    to: Type.String({ format: 'date', description: 'Last day of the period: today in São Paulo' }),
    timeZone: Type.Literal('America/Sao_Paulo'),
    volumes: Type.Array(DayVolumeSchema, { description: 'Every day of the period and both order types, oldest first; zeros on days without orders' }),
    ordersByStatus: Type.Array(StatusCountSchema, { description: 'All the merchant\'s orders by current status, whatever their date; statuses with no order are left out' }),
    fees: Type.Object(
      {
        balance: BrlText('The fee balance (GET /ledger/fees/balance): merchant fees collected and not yet settled, never negative'),
        chargebacksOwed: BrlText('What the merchant owes for charge-backs of accepted MED claims (GET /ledger/fees/balance), netted by the next settlement'),
        currency: Type.Literal('BRL'),
        unsettledEntries: Type.Integer({ description: 'Ledger entries bearing a merchant fee or markup that no settlement has closed yet' }),
        unsettledAmountBrl: BrlText('Their merchant fees and partner markup summed: what a settlement run now would close'),
      },
      { title: 'OverviewFees' },
    ),
    attention: Type.Object(
      {
        failedOrders: Type.Object(
          {
            count: Type.Integer({ description: 'Orders created in the period that are FAILED' }),
            latestIds: Type.Array(Uuid(), { description: 'The newest of them, at most 5, newest first (GET /orders?status=FAILED lists them all)' }),
          },
          { title: 'OverviewFailedOrders' },
        ),
        webhookEndpoints: Type.Array(AttentionEndpointSchema, { description: 'Endpoints failing (failingSince set) or disabled' }),
      },
      { title: 'OverviewAttention' },
    ),
  },
  { title: 'Overview' },
);
