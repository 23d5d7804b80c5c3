/**
 * A receiver's KYC file (/app/ops/kyc/$id, GET /admin/receivers/{id}/kyc): the receiver's facts
 * and merchant, the decision (kyc-decision.tsx), suspending, blocking or reactivating the receiver
 * (receiver-status-actions.tsx), every submission newest first with its
 * documents (references to the merchant's storage, not files), and the history of decisions.
 */
import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { opsKeys } from '../../api/query-keys.ts';
import type { components } from '../../api/schema.ts';
import { AuditChange } from '../../components/audit-change.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Facts } from '../../components/facts.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import { KycBadge, StatusBadge, type Receiver } from '../receivers/labels.tsx';
import { KycDecision } from './kyc-decision.tsx';
import { formatWaiting } from './ops-format.ts';
import { useActorName } from './operators-query.ts';
import { ReceiverStatusActions } from './receiver-status-actions.tsx';

type Submission = components['schemas']['KycSubmission'];
type Document = Submission['documents'][number];
type Translate = ReturnType<typeof useI18n>['t'];

const documentColumns = (t: Translate): Column<Document>[] => [
  { id: 'type', header: t('opsKyc.documentType'), cell: (document) => document.type },
  { id: 'reference', header: t('opsKyc.reference'), cell: (document) => <span style={{ wordBreak: 'break-all' }}>{document.reference}</span> },
];

const address = (r: Receiver) =>
  [r.addressStreet, r.addressNumber, r.addressComplement, r.addressNeighborhood, r.addressCity, r.addressState, r.addressZipCode].filter(Boolean).join(', ');

function SubmissionView({ submission }: { submission: Submission }) {
  const { t } = useI18n();
  const date = formatDateTime(submission.submittedAt);
  const none = t('common.none');
  return (
    <Stack gap="xs">
      <Title order={3}>{t('opsKyc.submission', { date })}</Title>
      <Facts
        rows={[
          [t('opsKyc.birthDate'), submission.birthDate ?? none],
          [t('opsKyc.incorporationDate'), submission.incorporationDate ?? none],
          [t('opsKyc.motherName'), submission.motherName ?? none],
          [t('opsKyc.previousRejection'), submission.previousRejectionReason ?? none],
        ]}
      />
      <DataTable
        caption={t('opsKyc.documents', { date })}
        columns={documentColumns(t)}
        rows={submission.documents}
        rowKey={(document) => `${document.type}:${document.reference}`}
        minWidth={0}
      />
    </Stack>
  );
}

export function ReceiverKycPage() {
  const { t } = useI18n();
  const { id } = useParams({ strict: false }) as { id: string };
  const actorName = useActorName();
  const file = useQuery({ queryKey: opsKeys.receiverKyc(id), queryFn: () => call(api.GET('/admin/receivers/{id}/kyc', { params: { path: { id } } })) });

  if (file.error) return <ErrorAlert error={file.error} />;
  if (!file.data) return <Loading />;
  const { receiver, merchantName, waitingSeconds, submissions, history } = file.data;
  const historyColumns: Column<(typeof history)[number]>[] = [
    { id: 'when', header: t('opsKyc.when'), cell: (entry) => formatDateTime(entry.createdAt) },
    { id: 'actor', header: t('opsKyc.actor'), cell: (entry) => actorName(entry.actor) },
    { id: 'action', header: t('opsKyc.action'), cell: (entry) => entry.action },
    { id: 'details', header: t('opsKyc.details'), cell: (entry) => <AuditChange details={entry.details} before={t('opsAudit.before')} after={t('opsAudit.after')} /> },
  ];
  const none = t('common.none');

  return (
    <Stack>
      <Anchor component={Link} to="/ops/kyc" w="fit-content">
        {t('common.back')}
      </Anchor>
      <Title order={1}>{t('opsKyc.fileTitle', { name: receiver.name })}</Title>
      <section aria-labelledby="kyc-facts-heading">
        <Title order={2} id="kyc-facts-heading" mb="xs">{t('opsKyc.facts')}</Title>
        <Facts
          rows={[
            [t('opsKyc.merchant'), <Anchor key="m" renderRoot={(props) => <Link {...props} to="/ops/merchants/$id" params={{ id: receiver.merchantId }} />}>{merchantName}</Anchor>],
            [t('opsKyc.type'), receiver.type],
            [t('opsKyc.document'), `${receiver.documentType} ${receiver.document}`],
            [t('opsKyc.email'), receiver.email],
            [t('opsKyc.phone'), receiver.phone ?? none],
            [t('opsKyc.address'), address(receiver) || none],
            [t('opsKyc.receiverStatus'), <StatusBadge key="s" status={receiver.status} />],
            [t('opsKyc.status'), <KycBadge key="k" status={receiver.kycStatus} />],
            [t('opsKyc.submittedAt'), receiver.kycSubmittedAt ? formatDateTime(receiver.kycSubmittedAt) : none],
            [t('opsKyc.waiting'), formatWaiting(waitingSeconds)],
            [t('opsKyc.reviewedAt'), receiver.kycReviewedAt ? formatDateTime(receiver.kycReviewedAt) : none],
            [t('opsKyc.rejectionReason'), receiver.kycRejectionReason ?? none],
          ]}
        />
      </section>
      <KycDecision receiver={receiver} />
      <ReceiverStatusActions receiver={receiver} />
      <Stack component="section" aria-labelledby="kyc-submissions-heading">
        <Title order={2} id="kyc-submissions-heading">{t('opsKyc.submissions')}</Title>
        {submissions.length === 0 ? <Text>{t('opsKyc.noSubmissions')}</Text> : submissions.map((submission) => <SubmissionView key={submission.id} submission={submission} />)}
      </Stack>
      <Stack component="section" aria-labelledby="kyc-history-heading">
        <Title order={2} id="kyc-history-heading">{t('opsKyc.history')}</Title>
        {history.length === 0 ? (
          <Text>{t('opsKyc.noHistory')}</Text>
        ) : (
          <DataTable caption={t('opsKyc.history')} columns={historyColumns} rows={history} rowKey={(entry) => entry.id} minWidth={700} />
        )}
      </Stack>
    </Stack>
  );
}
