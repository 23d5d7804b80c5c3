/**
 * The reviewer's decision on a receiver's KYC: start the review (SUBMITTED), approve, or reject
 * with the reason the receiver will see (SUBMITTED or UNDER_REVIEW). Disabled without
 * `kyc.review` in the operator's session; the API refuses regardless (403 ROLE_NOT_ALLOWED).
 */
import { Alert, Button, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { useOperatorMay } from '../../api/operator-session.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { READABLE, TONE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';
import type { Receiver } from '../receivers/labels.tsx';
import { opsKeys } from '../../api/query-keys.ts';

type Decision = { kind: 'start-review' } | { kind: 'approve' } | { kind: 'reject'; reason: string };

export function KycDecision({ receiver }: { receiver: Receiver }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const may = useOperatorMay('kyc.review');
  const [reason, setReason] = useState('');
  const params = { path: { id: receiver.id } };
  const decide = useMutation({
    mutationFn: (decision: Decision) => {
      if (decision.kind === 'start-review') return call(api.POST('/admin/receivers/{id}/kyc/start-review', { params }));
      if (decision.kind === 'approve') return call(api.POST('/admin/receivers/{id}/kyc/approve', { params }));
      return call(api.POST('/admin/receivers/{id}/kyc/reject', { params, body: { reason: decision.reason } }));
    },
    onSuccess: async () => {
      setReason('');
      await queryClient.invalidateQueries({ queryKey: opsKeys.all });
    },
  });
  const decidable = receiver.kycStatus === 'SUBMITTED' || receiver.kycStatus === 'UNDER_REVIEW';
  const busy = decide.isPending;

  return (
    <Stack component="section" aria-labelledby="kyc-decision-heading">
      <Title order={2} id="kyc-decision-heading">{t('opsKyc.decision')}</Title>
      {!may ? <Text>{t('ops.notAllowed')}</Text> : null}
      {!decidable ? <Text>{t('opsKyc.notDecidable')}</Text> : null}
      {decide.error ? <ErrorAlert error={decide.error} /> : null}
      {decide.isSuccess ? <Alert color="green" role="status">{t('opsKyc.decided', { status: t(`kyc.${decide.data.kycStatus}`) })}</Alert> : null}
      <Group>
        {receiver.kycStatus === 'SUBMITTED' ? (
          <Button variant="default" disabled={!may || busy} onClick={() => decide.mutate({ kind: 'start-review' })}>
            {t('opsKyc.startReview')}
          </Button>
        ) : null}
        <Button color={TONE.ok} disabled={!may || !decidable || busy} onClick={() => decide.mutate({ kind: 'approve' })}>
          {t('opsKyc.approve')}
        </Button>
      </Group>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (reason.trim()) decide.mutate({ kind: 'reject', reason: reason.trim() });
        }}
      >
        <Stack gap="xs" maw={560}>
          <Textarea label={t('opsKyc.reason')} value={reason} onChange={(event) => setReason(event.currentTarget.value)} maxLength={1000} autosize minRows={2} disabled={!may || !decidable} required styles={READABLE} />
          <Button type="submit" color={TONE.bad} disabled={!may || !decidable || busy || !reason.trim()} w="fit-content">
            {t('opsKyc.reject')}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
