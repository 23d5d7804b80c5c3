/**
 * The merchant's fee tiers (GET /fee-tiers), one table per order type, and for a person who may
 * change them (payments.write: OWNER and ADMIN, src/modules/users/roles.ts) an editor per type.
 * Others see the tables read-only; the API refuses their PUT with 403 whatever the page shows.
 */
import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import type { components } from '../../api/schema.ts';
import { useMay } from '../../api/permissions.ts';
import { sessionQuery } from '../../api/session.ts';
import { DataTable, ListState, type Column } from '../../components/data-table.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl, formatFeeFraction } from '../../i18n/format.ts';
import { TierEditor } from './tier-editor.tsx';
import { keys } from '../../api/query-keys.ts';

type FeeTier = components['schemas']['FeeTier'];
type OrderType = FeeTier['orderType'];

const ORDER_TYPES: OrderType[] = ['PAYIN', 'PAYOUT'];

function TierTable({ orderType, tiers }: { orderType: OrderType; tiers: FeeTier[] }) {
  const { t, language } = useI18n();
  // The order page's form (formatFeeFraction): one way of writing a fee across the dashboard.
  const percent = (fraction: number) => formatFeeFraction(fraction, language);
  const columns: Column<FeeTier>[] = [
    { id: 'min', header: t('fees.min'), cell: (tier) => formatBrl(tier.minVolumeBrl, language) },
    { id: 'max', header: t('fees.max'), cell: (tier) => (tier.maxVolumeBrl === null ? t('fees.noMax') : formatBrl(tier.maxVolumeBrl, language)) },
    { id: 'platformFee', header: t('fees.platformFee'), cell: (tier) => percent(tier.platformFeePercentage) },
    { id: 'merchantFee', header: t('fees.merchantFee'), cell: (tier) => percent(tier.merchantFeePercentage) },
    { id: 'totalFee', header: t('fees.totalFee'), cell: (tier) => percent(tier.totalFeePercentage) },
  ];
  return <DataTable caption={t('fees.tiersCaption', { type: orderType })} columns={columns} rows={tiers} rowKey={(tier) => tier.id} minWidth={560} testId={`tiers-${orderType}`} />;
}

export function TiersSection() {
  const { t } = useI18n();
  const session = useQuery(sessionQuery);
  const tiers = useQuery({ queryKey: keys.feeTiers, queryFn: () => call(api.GET('/fee-tiers')) });
  const [editing, setEditing] = useState<OrderType | null>(null);
  const [saved, setSaved] = useState<OrderType | null>(null);
  // payments.write, from the session's permissions; the API is the guard, this only hides the editor.
  const canEdit = useMay('payments.write');

  return (
    <Card withBorder component="section" aria-labelledby="tiers-heading">
      <Title order={2} size="h3" id="tiers-heading" mb="sm">
        {t('fees.tiers')}
      </Title>
      <Text size="sm" mb="sm">
        {t('fees.tiersIntro')}
      </Text>
      {session.data && !canEdit ? (
        <Alert color="gray" mb="sm">
          {t('fees.readOnly')}
        </Alert>
      ) : null}
      <div role="status">{saved ? <Alert color="green" mb="sm">{t('fees.saved', { type: saved })}</Alert> : null}</div>
      <ListState query={tiers} isEmpty={() => false} empty={null}>
        {(data) => (
          <Stack>
            {ORDER_TYPES.map((orderType) => {
              const ofType = data.filter((tier) => tier.orderType === orderType);
              return (
                <Stack key={orderType} gap="xs">
                  <Group justify="space-between">
                    <Title order={3} size="h4">
                      {orderType}
                    </Title>
                    {canEdit && editing !== orderType ? (
                      <Button
                        size="xs"
                        variant="default"
                        onClick={() => {
                          setSaved(null);
                          setEditing(orderType);
                        }}
                      >
                        {t('fees.edit', { type: orderType })}
                      </Button>
                    ) : null}
                  </Group>
                  {editing === orderType ? (
                    <TierEditor
                      orderType={orderType}
                      tiers={ofType}
                      onDone={(wasSaved) => {
                        setEditing(null);
                        setSaved(wasSaved ? orderType : null);
                      }}
                    />
                  ) : (
                    <TierTable orderType={orderType} tiers={ofType} />
                  )}
                </Stack>
              );
            })}
          </Stack>
        )}
      </ListState>
    </Card>
  );
}
