/**
 * A receiver's status in the back office, each after a confirmation: suspend (an ACTIVE one,
 * POST /admin/receivers/{id}/suspend), block (any but BLOCKED, …/block) and reactivate (SUSPENDED
 * or BLOCKED, …/reactivate: ACTIVE with approved KYC, else PENDING). A button shows only when the
 * status allows it, the API's own rule. They need `kyc.review`: without it disabled, and the API
 * refuses regardless (403 ROLE_NOT_ALLOWED).
 */
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { useOperatorMay } from '../../api/operator-session.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { TONE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';
import { ConfirmModal } from '../developers/confirm-modal.tsx';
import type { Receiver } from '../receivers/labels.tsx';
import { opsKeys } from '../../api/query-keys.ts';

type Change = 'suspend' | 'block' | 'reactivate';

/** Which changes a receiver's status allows (the API answers 409 to the others). */
const ALLOWED: Record<Change, (status: Receiver['status']) => boolean> = {
  suspend: (status) => status === 'ACTIVE',
  block: (status) => status !== 'BLOCKED',
  reactivate: (status) => status === 'SUSPENDED' || status === 'BLOCKED',
};
const CHANGES: Change[] = ['suspend', 'block', 'reactivate'];
const COLOUR: Record<Change, string> = { suspend: TONE.warn, block: TONE.bad, reactivate: TONE.ok };

export function ReceiverStatusActions({ receiver }: { receiver: Receiver }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const may = useOperatorMay('kyc.review');
  const [confirming, setConfirming] = useState<Change | null>(null);
  const change = useMutation({
    mutationFn: (kind: Change) => {
      const params = { path: { id: receiver.id } };
      if (kind === 'suspend') return call(api.POST('/admin/receivers/{id}/suspend', { params }));
      if (kind === 'block') return call(api.POST('/admin/receivers/{id}/block', { params }));
      return call(api.POST('/admin/receivers/{id}/reactivate', { params }));
    },
    onSuccess: async () => {
      setConfirming(null);
      await queryClient.invalidateQueries({ queryKey: opsKeys.all });
    },
  });
  const offered = CHANGES.filter((kind) => ALLOWED[kind](receiver.status));

  return (
    <Stack component="section" aria-labelledby="receiver-status-heading">
      <Title order={2} id="receiver-status-heading">{t('opsKyc.statusActions')}</Title>
      {!may ? <Text>{t('ops.notAllowed')}</Text> : null}
      {change.error ? <ErrorAlert error={change.error} /> : null}
      {change.isSuccess ? <Alert color="green" role="status">{t('opsKyc.statusChanged', { status: t(`status.${change.data.status}`) })}</Alert> : null}
      <Group>
        {offered.map((kind) => (
          <Button key={kind} color={COLOUR[kind]} variant={kind === 'reactivate' ? 'filled' : 'outline'} disabled={!may} onClick={() => setConfirming(kind)}>
            {t(`opsKyc.${kind}`)}
          </Button>
        ))}
      </Group>
      <ConfirmModal
        opened={confirming !== null}
        title={confirming ? t(`opsKyc.${confirming}Title`, { name: receiver.name }) : ''}
        text={confirming ? t(`opsKyc.${confirming}Text`) : ''}
        confirm={confirming ? t(`opsKyc.${confirming}`) : ''}
        busy={change.isPending}
        onConfirm={() => confirming && change.mutate(confirming)}
        onClose={() => {
          change.reset();
          setConfirming(null);
        }}
      />
    </Stack>
  );
}
