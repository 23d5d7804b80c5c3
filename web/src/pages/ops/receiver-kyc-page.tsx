/**
 * A receiver's KYC file (/app/ops/kyc/$id, GET /admin/receivers/{id}/kyc): the receiver's facts
 * and merchant, the decision (kyc-decision.tsx), suspending, blocking or reactivating the receiver
 * (receiver-status-actions.tsx), every submission newest first with its
 * documents (references to the merchant's storage, not files), and the history of decisions.
 */
import { Anchor, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { api, call } from '../../api/client.ts';
import { OPS_KEY } from '../../api/query-client.ts';
import type { components } from '../../api/schema.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Facts } from '../../components/facts.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import { KycBadge, StatusBadge, type Receiver } from '../receivers/labels.tsx';
import { AuditChange } from './audit-change.tsx';
import { KycDecision } from './kyc-decision.tsx';
import { formatWaiting } from './ops-format.ts';
import { useActorName } from './operators-query.ts';
import { ReceiverStatusActions } from './receiver-status-actions.tsx';

type Submission = components['schemas']['KycSubmission'];

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
      <Table withTableBorder>
        <caption>{t('opsKyc.documents', { date })}</caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('opsKyc.documentType')}</Table.Th>
            <Table.Th scope="col">{t('opsKyc.reference')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {submission.documents.map((document) => (
            <Table.Tr key={`${document.type}:${document.reference}`}>
              <Table.Td>{document.type}</Table.Td>
              <Table.Td style={{ wordBreak: 'break-all' }}>{document.reference}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

export function ReceiverKycPage() {
  const { t } = useI18n();
  const { id } = useParams({ strict: false }) as { id: string };
  const actorName = useActorName();
  const file = useQuery({ queryKey: [OPS_KEY, 'receiver-kyc', id], queryFn: () => call(api.GET('/admin/receivers/{id}/kyc', { params: { path: { id } } })) });

  if (file.error) return <ErrorAlert error={file.error} />;
  if (!file.data) return <Loading />;
  const { receiver, merchantName, waitingSeconds, submissions, history } = file.data;
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
          <Table.ScrollContainer minWidth={700}>
            <Table striped aria-labelledby="kyc-history-heading">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t('opsKyc.when')}</Table.Th>
                  <Table.Th scope="col">{t('opsKyc.actor')}</Table.Th>
                  <Table.Th scope="col">{t('opsKyc.action')}</Table.Th>
                  <Table.Th scope="col">{t('opsKyc.details')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {history.map((entry) => (
                  <Table.Tr key={entry.id}>
                    <Table.Td>{formatDateTime(entry.createdAt)}</Table.Td>
                    <Table.Td>{actorName(entry.actor)}</Table.Td>
                    <Table.Td>{entry.action}</Table.Td>
                    <Table.Td>
                      <AuditChange details={entry.details} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Stack>
  );
}
