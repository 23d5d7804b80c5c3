/**
 * On an order's page: the open MED claims on it (GET /disputes?orderId=&status=OPEN; only a PAYIN's
 * PIX can be claimed), each with its defence deadline (and its badge when near or past) and a
 * link to the claim, where the defence is sent. Nothing when there is none.
 */
import { Anchor, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { keys } from '../../api/query-keys.ts';
import { Deadline } from '../../components/dispute-badges.tsx';
import { TONE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl } from '../../i18n/format.ts';

export function OrderClaimNotice({ orderId }: { orderId: string }) {
  const { t, language } = useI18n();
  const query = { orderId, status: 'OPEN' as const, page: 1, limit: 10 };
  const claims = useQuery({ queryKey: keys.disputes.list(query), queryFn: () => call(api.GET('/disputes', { params: { query } })) });
  const open = claims.data?.data ?? [];
  if (open.length === 0) return null;
  return (
    <Card withBorder component="section" aria-labelledby="order-claim-heading" data-testid="order-claim" style={{ borderLeft: `4px solid ${TONE.warn}` }}>
      <Title order={2} size="h3" id="order-claim-heading" mb="xs">{t('disputes.order.open')}</Title>
      <Stack gap="xs">
        {open.map((claim) => (
          <Group key={claim.id} gap="sm" wrap="wrap">
            <Text size="sm">{formatBrl(claim.amountBrl, language)}</Text>
            <Deadline dispute={claim} now={claims.dataUpdatedAt} />
            <Anchor renderRoot={(props) => <Link {...props} to="/disputes/$id" params={{ id: claim.id }} />} size="sm">
              {t('disputes.order.link')}
            </Anchor>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
