/**
 * One MED claim (/app/disputes/$id, GET /disputes/{id}): the order (a link), the amount claimed,
 * status, deadline (with its badge when near or past), whether the order is held, the reason the
 * payer's PSP reported, the defence (the form, or what was sent: defense-section.tsx) and, once
 * decided, the outcome and the MED return's status. What the PSP wrote is shown as text.
 */
import { Anchor, Code, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { keys } from '../../api/query-keys.ts';
import { Deadline, DisputeStatusBadge } from '../../components/dispute-badges.tsx';
import { PRE_WRAP } from '../../components/dispute-defense.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Facts } from '../../components/facts.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl, formatDateTime } from '../../i18n/format.ts';
import type { Dispute } from '../../lib/disputes.ts';
import { DefenseSection } from './defense-section.tsx';
import { OrderLink } from './order-link.tsx';
import { Section } from '../../components/section.tsx';


function Decision({ dispute }: { dispute: Dispute }) {
  const { t } = useI18n();
  const none = t('common.none');
  return (
    <Stack gap="xs" data-testid="dispute-outcome">
      {dispute.resolvedAt ? <Text>{t('disputes.detail.decided', { at: formatDateTime(dispute.resolvedAt), status: t(`disputes.status.${dispute.status}`) })}</Text> : null}
      <Facts
        rows={[
          [t('disputes.field.status'), <DisputeStatusBadge status={dispute.status} />],
          [t('disputes.field.outcome'), dispute.outcome ? t(`disputes.outcome.${dispute.outcome}`) : t('disputes.outcome.pending')],
          [t('disputes.field.returnStatus'), dispute.returnStatus ? t(`disputes.return.${dispute.returnStatus}`) : none],
        ]}
      />
    </Stack>
  );
}

export function DisputePage() {
  const { t, language } = useI18n();
  const { id = '' } = useParams({ strict: false });
  const dispute = useQuery({ queryKey: keys.disputes.detail(id), queryFn: () => call(api.GET('/disputes/{id}', { params: { path: { id } } })) });
  const data = dispute.data;
  // Deadlines as of the answer (a render must not read the clock).
  const now = dispute.dataUpdatedAt;

  return (
    <Stack>
      <Anchor component={Link} to="/disputes">← {t('common.back')}</Anchor>
      {dispute.error ? <ErrorAlert error={dispute.error} /> : null}
      {dispute.isPending ? <Loading /> : null}
      {data ? (
        <>
          <Title order={1}>{t('disputes.detail.title', { at: formatDateTime(data.reportedAt) })}</Title>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Section id="dispute-facts" title={t('disputes.detail.facts')}>
              <Facts
                rows={[
                  [t('disputes.field.status'), <DisputeStatusBadge status={data.status} />],
                  [t('disputes.field.order'), <OrderLink dispute={data} />],
                  [t('disputes.field.externalId'), data.externalId ?? t('common.none')],
                  [t('disputes.field.amountBrl'), formatBrl(data.amountBrl, language)],
                  [t('disputes.field.reportedAt'), formatDateTime(data.reportedAt)],
                  [t('disputes.field.deadline'), <Deadline dispute={data} now={now} />],
                  [t('disputes.field.held'), data.orderHeld ? t('common.yes') : t('common.no')],
                  [t('disputes.field.id'), <Code style={{ wordBreak: 'break-all' }}>{data.id}</Code>],
                  [t('disputes.field.pixEndToEndId'), <Code style={{ wordBreak: 'break-all' }}>{data.pixEndToEndId}</Code>],
                ]}
              />
            </Section>
            <Section id="dispute-reason" title={t('disputes.detail.reason')}>
              <Text style={PRE_WRAP} data-testid="dispute-reason">{data.reason}</Text>
            </Section>
          </SimpleGrid>
          <Section id="dispute-defense" title={t('disputes.detail.defense')}>
            <DefenseSection dispute={data} now={now} />
          </Section>
          <Section id="dispute-outcome" title={t('disputes.detail.outcome')}>
            <Decision dispute={data} />
          </Section>
        </>
      ) : null}
    </Stack>
  );
}
