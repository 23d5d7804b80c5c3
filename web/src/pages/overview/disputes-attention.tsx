/**
 * The overview's notice of open MED claims (GET /disputes?status=OPEN): how many, and the three
 * with the nearest defence deadline, each with its badge when near or past and a link to the
 * claim. The API lists newest first, so the nearest deadlines are found among the first 100 open
 * claims (a merchant with more has the list page). Nothing when none is open.
 */
import { Card, List, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../api/client.ts';
import { keys } from '../../api/query-keys.ts';
import { Deadline } from '../../components/dispute-badges.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl } from '../../i18n/format.ts';
import { AppLink } from './app-link.tsx';

const QUERY = { status: 'OPEN' as const, page: 1, limit: 100 };
const SHOWN = 3;

export function DisputesAttention() {
  const { t, tn, language } = useI18n();
  const claims = useQuery({ queryKey: keys.disputes.list(QUERY), queryFn: () => call(api.GET('/disputes', { params: { query: QUERY } })) });
  if (!claims.data || claims.data.total === 0) return null;
  const nearest = [...claims.data.data].sort((a, b) => a.defenseDeadline.localeCompare(b.defenseDeadline)).slice(0, SHOWN);
  return (
    <Card withBorder component="section" aria-labelledby="disputes-attention-heading" data-testid="disputes-attention">
      <Title order={2} size="h3" id="disputes-attention-heading" mb="sm">{t('disputes.overview.title')}</Title>
      <Stack gap="xs">
        <Text>{tn('disputes.overview.count', claims.data.total)}</Text>
        <Text fw={600}>{t('disputes.overview.nearest')}</Text>
        <List spacing="xs">
          {nearest.map((claim) => (
            <List.Item key={claim.id}>
              <AppLink path={`/disputes/${claim.id}`}>{t('disputes.overview.claim', { order: claim.externalId ?? claim.orderId, amount: formatBrl(claim.amountBrl, language) })}</AppLink>
              <Deadline dispute={claim} now={claims.dataUpdatedAt} />
            </List.Item>
          ))}
        </List>
        <AppLink path="/disputes?status=OPEN">{t('disputes.overview.all')}</AppLink>
      </Stack>
    </Card>
  );
}
