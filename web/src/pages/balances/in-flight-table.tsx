/** The merchant's orders in flight by stage (GET /ledger/balances `inFlight`): count, BRL and token sums. */
import { DataTable, type Column } from '../../components/data-table.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl, formatTokenAmount } from '../../i18n/format.ts';
import { type InFlightStage, stageLabel } from './stage-label.ts';

export function InFlightTable({ stages }: { stages: InFlightStage[] }) {
  const { t, language } = useI18n();
  const id = (stage: InFlightStage) => `${stage.type}-${stage.stage}`;
  const columns: Column<InFlightStage>[] = [
    { id: 'stage', header: t('balances.stage'), cell: (stage) => t(stageLabel(stage)) },
    { id: 'count', header: t('balances.count'), align: 'right', cell: (stage) => <span data-testid={`in-flight-count-${id(stage)}`}>{stage.count}</span> },
    { id: 'amountBrl', header: t('balances.amountBrl'), align: 'right', cell: (stage) => <span data-testid={`in-flight-brl-${id(stage)}`}>{formatBrl(stage.amountBrl, language)}</span> },
    {
      id: 'tokens',
      header: t('balances.tokens'),
      align: 'right',
      cell: (stage) => (
        <span data-testid={`in-flight-tokens-${id(stage)}`}>
          {stage.tokens.length === 0 ? '—' : stage.tokens.map((token) => formatTokenAmount(token.amount, token.token, language)).join(', ')}
        </span>
      ),
    },
  ];
  return <DataTable caption={t('balances.inFlightCaption')} columns={columns} rows={stages} rowKey={id} minWidth={560} />;
}
