/**
 * What may be done to a batch in its status, each one route of the API: confirm a VALIDATED batch
 * (submit) or discard it (cancel); approve one AWAITING_APPROVAL (a second person: an OWNER or
 * ADMIN who did not create it, the API's rule of decision 0047, read from the session's person and
 * role; the API refuses anyone else with 403 and the page says why); pause, resume; cancel the
 * unpaid rest, after a confirmation. The API is the guard: a button only spares a refusal.
 */
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { isApiError } from '../../api/errors.ts';
import { useMay } from '../../api/permissions.ts';
import { keys } from '../../api/query-keys.ts';
import { sessionQuery } from '../../api/session.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Section } from '../../components/section.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import type { MessageKey } from '../../i18n/messages.ts';
import { idempotencyKey } from './idempotency.ts';
import { FINAL_BATCH, type Batch } from './labels.tsx';

type Action = 'submit' | 'approve' | 'pause' | 'resume' | 'cancel';

const CANCELLABLE = new Set<Batch['status']>(['VALIDATED', 'AWAITING_APPROVAL', 'AWAITING_FUNDING', 'PAUSED', 'PAYING']);

/** Our words for the refusals a person meets here; anything else is the shared alert. */
function ActionError({ error }: { error: unknown }) {
  const { t } = useI18n();
  if (isApiError(error)) {
    const reason = typeof error.details?.reason === 'string' ? error.details.reason : error.code;
    const key = `batches.error.${reason}` as MessageKey;
    if (key === 'batches.error.SECOND_PERSON_REQUIRED' || key === 'batches.error.CONFLICT') {
      return <Alert color="red" role="alert" styles={{ message: { color: 'var(--mantine-color-text)' } }}>{t(key)}</Alert>;
    }
  }
  return <ErrorAlert error={error} />;
}

export function BatchActions({ batch }: { batch: Batch }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const session = useQuery(sessionQuery);
  const mayWrite = useMay('payments.write');
  const [confirming, setConfirming] = useState(false);
  const act = useMutation({
    mutationFn: (action: Action) => call(api.POST(`/payout-batches/{id}/${action}`, { params: { path: { id: batch.id }, header: { 'idempotency-key': idempotencyKey(action) } } })),
    onSuccess: (answer) => {
      queryClient.setQueryData(keys.payoutBatches.detail(batch.id), answer);
      setConfirming(false);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.payoutBatches.all }),
  });

  const person = session.data?.user;
  const secondPerson = person !== undefined && (person.role === 'OWNER' || person.role === 'ADMIN') && person.id !== batch.createdByUserId;
  const button = (action: Action, label: MessageKey, variant: 'filled' | 'default' = 'default') => (
    <Button variant={variant} color={variant === 'filled' ? undefined : 'dark'} loading={act.isPending && act.variables === action} disabled={act.isPending} onClick={() => act.mutate(action)}>
      {t(label)}
    </Button>
  );
  const status = batch.status;
  // A batch that moves no more and was never approved has nothing to say here.
  if (FINAL_BATCH.has(status) && !batch.approvedAt && !act.error) return null;

  return (
    <Section id="batch-actions-heading" title={t('batches.actions.title')}>
      <Stack gap="sm">
        {status === 'AWAITING_APPROVAL' ? <Text>{t('batches.approval.needed')}</Text> : null}
        {status === 'AWAITING_APPROVAL' && person && !secondPerson ? (
          <Text data-testid="approval-refused">{person.id === batch.createdByUserId ? t('batches.approval.creator') : t('batches.approval.role')}</Text>
        ) : null}
        {batch.approvedAt ? <Text>{t('batches.approval.by', { at: formatDateTime(batch.approvedAt) })}</Text> : null}
        {!mayWrite ? <Text>{t('batches.mayNotWrite')}</Text> : null}
        {mayWrite ? (
          <Group>
            {status === 'VALIDATED' ? button('submit', 'batches.action.submit', 'filled') : null}
            {status === 'AWAITING_APPROVAL' && secondPerson ? button('approve', 'batches.action.approve', 'filled') : null}
            {status === 'AWAITING_FUNDING' || status === 'PAYING' ? button('pause', 'batches.action.pause') : null}
            {status === 'PAUSED' ? button('resume', 'batches.action.resume', 'filled') : null}
            {CANCELLABLE.has(status) && !confirming ? (
              <Button variant="outline" color="red.9" onClick={() => setConfirming(true)} disabled={act.isPending}>
                {t(status === 'VALIDATED' ? 'batches.action.discard' : 'batches.action.cancel')}
              </Button>
            ) : null}
          </Group>
        ) : null}
        {status === 'VALIDATED' && mayWrite ? <Text size="sm">{t('batches.action.submitHint')}</Text> : null}
        {confirming && CANCELLABLE.has(status) ? (
          <Stack gap="xs" role="group" aria-labelledby="batch-cancel-question">
            <Text id="batch-cancel-question" fw={700}>{t('batches.action.cancelConfirm')}</Text>
            <Text size="sm">{t('batches.action.cancelHint')}</Text>
            <Group>
              <Button color="red.9" loading={act.isPending && act.variables === 'cancel'} onClick={() => act.mutate('cancel')}>
                {t(status === 'VALIDATED' ? 'batches.action.discard' : 'batches.action.cancel')}
              </Button>
              <Button variant="default" onClick={() => setConfirming(false)}>{t('batches.action.keep')}</Button>
            </Group>
          </Stack>
        ) : null}
        {act.error ? <ActionError error={act.error} /> : null}
      </Stack>
    </Section>
  );
}
