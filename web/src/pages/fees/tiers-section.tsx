/**
 * The merchant's fee tiers (GET /fee-tiers), one table per order type, and for a person who may
 * change them (payments.write: OWNER and ADMIN, src/modules/users/roles.ts) an editor per type.
 * Others see the tables read-only; the API refuses their PUT with 403 whatever the page shows.
 */
import { Alert, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import type { components } from '../../api/schema.ts';
import { sessionQuery } from '../../api/session.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl, formatFeeFraction } from '../../i18n/format.ts';
import { TierEditor } from './tier-editor.tsx';
import { keys } from '../../api/query-keys.ts';

type FeeTier = components['schemas']['FeeTier'];
type OrderType = FeeTier['orderType'];

const ORDER_TYPES: OrderType[] = ['PAYIN', 'PAYOUT'];
/** The roles holding payments.write (roles.ts); the API is the guard, this only hides the editor. */
const EDITORS = new Set(['OWNER', 'ADMIN']);

function TierTable({ orderType, tiers }: { orderType: OrderType; tiers: FeeTier[] }) {
  const { t, language } = useI18n();
  // The order page's form (formatFeeFraction): one way of writing a fee across the dashboard.
  const percent = (fraction: number) => formatFeeFraction(fraction, language);
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped data-testid={`tiers-${orderType}`}>
        <Table.Caption style={{ color: 'var(--mantine-color-text)' }}>{t('fees.tiersCaption', { type: orderType })}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('fees.min')}</Table.Th>
            <Table.Th scope="col">{t('fees.max')}</Table.Th>
            <Table.Th scope="col">{t('fees.platformFee')}</Table.Th>
            <Table.Th scope="col">{t('fees.merchantFee')}</Table.Th>
            <Table.Th scope="col">{t('fees.totalFee')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tiers.map((tier) => (
            <Table.Tr key={tier.id}>
              <Table.Td>{formatBrl(tier.minVolumeBrl, language)}</Table.Td>
              <Table.Td>{tier.maxVolumeBrl === null ? t('fees.noMax') : formatBrl(tier.maxVolumeBrl, language)}</Table.Td>
              <Table.Td>{percent(tier.platformFeePercentage)}</Table.Td>
              <Table.Td>{percent(tier.merchantFeePercentage)}</Table.Td>
              <Table.Td>{percent(tier.totalFeePercentage)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export function TiersSection() {
  const { t } = useI18n();
  const session = useQuery(sessionQuery);
  const tiers = useQuery({ queryKey: keys.feeTiers, queryFn: () => call(api.GET('/fee-tiers')) });
  const [editing, setEditing] = useState<OrderType | null>(null);
  const [saved, setSaved] = useState<OrderType | null>(null);
  const canEdit = session.data ? EDITORS.has(session.data.user.role) : false;

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
      {tiers.error ? <ErrorAlert error={tiers.error} /> : null}
      {tiers.isPending ? <Loading /> : null}
      {tiers.data ? (
        <Stack>
          {ORDER_TYPES.map((orderType) => {
            const ofType = tiers.data.filter((tier) => tier.orderType === orderType);
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
      ) : null}
    </Card>
  );
}
