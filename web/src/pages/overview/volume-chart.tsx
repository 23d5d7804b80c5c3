/**
 * The period's volumes as a hand-made SVG bar chart (no chart library: the bundle budget), two
 * bars a day (PAYIN, PAYOUT). For assistive technology the SVG is one image whose aria-label
 * summarises it (totals and the busiest day); the exact figures are in a data table the person can
 * show under it. Colour is not the only cue: the legend names each colour, and the table has words.
 */
import { Button, Group, Stack, Text } from '@mantine/core';
import { useId, useState } from 'react';
import type { components } from '../../api/schema.ts';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl } from '../../i18n/format.ts';
import { centsText, share, toCents } from './cents.ts';
import { DataTable, type Column } from '../../components/data-table.tsx';

type DayVolume = components['schemas']['OverviewDayVolume'];
type OrderType = DayVolume['type'];

const TYPES: OrderType[] = ['PAYIN', 'PAYOUT'];
/** blue.8 and orange.9 of Mantine: both above 3:1 against white, as WCAG asks of graphics. */
export const TYPE_COLOUR: Record<OrderType, string> = { PAYIN: '#1864ab', PAYOUT: '#d9480f' };

const WIDTH = 800;
const HEIGHT = 260;
const LEFT = 96;
const BOTTOM = 28;
const TOP = 10;
const PLOT_W = WIDTH - LEFT - 8;
const PLOT_H = HEIGHT - TOP - BOTTOM;

/** 'YYYY-MM-DD' as '26/11/2026' (a calendar day: no time zone to apply). */
export const formatDay = (day: string) => day.split('-').reverse().join('/');

interface Day {
  day: string;
  byType: Record<OrderType, DayVolume>;
}

function byDay(volumes: DayVolume[]): Day[] {
  const days = new Map<string, Partial<Record<OrderType, DayVolume>>>();
  for (const volume of volumes) days.set(volume.day, { ...days.get(volume.day), [volume.type]: volume });
  const empty = (day: string, type: OrderType): DayVolume => ({ day, type, count: 0, amountBrl: '0.00', completedCount: 0, completedAmountBrl: '0.00' });
  return [...days].map(([day, types]) => ({ day, byType: { PAYIN: types.PAYIN ?? empty(day, 'PAYIN'), PAYOUT: types.PAYOUT ?? empty(day, 'PAYOUT') } }));
}

export function VolumeChart({ volumes, from, to }: { volumes: DayVolume[]; from: string; to: string }) {
  const { t, tn, language } = useI18n();
  const [showTable, setShowTable] = useState(false);
  const tableId = useId();
  const days = byDay(volumes);
  const brl = (cents: bigint) => formatBrl(centsText(cents), language);
  const columns: Column<(typeof days)[number]>[] = [
    { id: 'day', header: t('overview.day'), rowHeader: true, cell: (row) => formatDay(row.day) },
    ...TYPES.flatMap((type): Column<(typeof days)[number]>[] => [
      { id: `${type}-count`, header: t('overview.orders', { type }), cell: (row) => row.byType[type].count },
      { id: `${type}-amount`, header: t('overview.amount', { type }), cell: (row) => formatBrl(row.byType[type].amountBrl, language) },
      { id: `${type}-completed`, header: t('overview.completed', { type }), cell: (row) => formatBrl(row.byType[type].completedAmountBrl, language) },
    ]),
  ];

  const totals = { PAYIN: { cents: 0n, count: 0 }, PAYOUT: { cents: 0n, count: 0 } };
  let max = 0n;
  let busiest: { day: string; cents: bigint } | undefined;
  for (const { day, byType } of days) {
    let dayCents = 0n;
    for (const type of TYPES) {
      const cents = toCents(byType[type].amountBrl);
      totals[type].cents += cents;
      totals[type].count += byType[type].count;
      dayCents += cents;
      if (cents > max) max = cents;
    }
    if (dayCents > 0n && (!busiest || dayCents > busiest.cents)) busiest = { day, cents: dayCents };
  }

  const summary = t('overview.chartSummary', {
    from: formatDay(from),
    to: formatDay(to),
    payin: brl(totals.PAYIN.cents),
    payinOrders: tn('overview.orderCount', totals.PAYIN.count),
    payout: brl(totals.PAYOUT.cents),
    payoutOrders: tn('overview.orderCount', totals.PAYOUT.count),
    busiest: busiest ? t('overview.chartBusiest', { day: formatDay(busiest.day), amount: brl(busiest.cents) }) : t('overview.chartEmpty'),
  });

  const slot = PLOT_W / Math.max(days.length, 1);
  const bar = Math.max(slot * 0.4, 1);
  const ticks = max > 0n ? [0n, max / 2n, max] : [0n];
  const labelled = new Set([0, Math.floor((days.length - 1) / 2), days.length - 1]);

  return (
    <Stack gap="xs">
      <Group gap="md" aria-hidden="true">
        {TYPES.map((type) => (
          <Group key={type} gap={6}>
            <svg width="14" height="14" focusable="false">
              <rect width="14" height="14" fill={TYPE_COLOUR[type]} />
            </svg>
            <Text size="sm">{type}</Text>
          </Group>
        ))}
      </Group>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" role="img" aria-label={summary} data-testid="volume-chart" style={{ maxWidth: WIDTH }}>
        {ticks.map((tick) => {
          const y = TOP + PLOT_H - share(tick, max) * PLOT_H;
          return (
            <g key={String(tick)}>
              <line x1={LEFT} x2={WIDTH - 8} y1={y} y2={y} stroke="#ced4da" />
              <text x={LEFT - 6} y={y + 4} textAnchor="end" fontSize="11" fill="#212529">
                {brl(tick)}
              </text>
            </g>
          );
        })}
        {days.map(({ day, byType }, index) => (
          <g key={day} data-day={day}>
            {TYPES.map((type, position) => {
              const cents = toCents(byType[type].amountBrl);
              const height = share(cents, max) * PLOT_H;
              return cents > 0n ? (
                <rect
                  key={type}
                  data-type={type}
                  x={LEFT + index * slot + slot * 0.1 + position * bar}
                  y={TOP + PLOT_H - height}
                  width={bar}
                  height={Math.max(height, 1)}
                  fill={TYPE_COLOUR[type]}
                >
                  <title>{`${formatDay(day)} ${type}: ${brl(cents)}`}</title>
                </rect>
              ) : null;
            })}
            {labelled.has(index) ? (
              <text x={LEFT + index * slot + slot / 2} y={HEIGHT - 8} textAnchor="middle" fontSize="11" fill="#212529">
                {formatDay(day).slice(0, 5)}
              </text>
            ) : null}
          </g>
        ))}
      </svg>
      <Group>
        <Button variant="default" size="xs" aria-expanded={showTable} aria-controls={tableId} onClick={() => setShowTable(!showTable)}>
          {showTable ? t('overview.hideTable') : t('overview.showTable')}
        </Button>
      </Group>
      <div id={tableId} hidden={!showTable}>
        {showTable ? (
          <DataTable caption={t('overview.tableCaption', { from: formatDay(from), to: formatDay(to) })} columns={columns} rows={days} rowKey={(row) => row.day} minWidth={640} />
        ) : null}
      </div>
    </Stack>
  );
}
