/**
 * In the sandbox only (GET /merchant/environment answers `sandbox: true`): approve a receiver's KYC with the
 * sandbox driver POST /sandbox/receivers/{id}/kyc, the operator's decision without documents,
 * so a merchant can try orders. The driver needs `developer.write`.
 */
import { Alert, Button, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client.ts';
import { keys } from '../../api/query-keys.ts';
import { environmentQuery } from '../../api/environment.ts';
import { useMay } from '../../api/permissions.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { useI18n } from '../../i18n/context.tsx';
import type { Receiver } from './labels.tsx';

export function SandboxKyc({ receiver }: { receiver: Receiver }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const mayDrive = useMay('developer.write');
  const environment = useQuery(environmentQuery);
  const approve = useMutation({
    mutationFn: () => call(api.POST('/sandbox/receivers/{id}/kyc', { params: { path: { id: receiver.id } }, body: { decision: 'APPROVE' } })),
    onSuccess: (saved) => {
      queryClient.setQueryData(keys.receivers.detail(receiver.id), saved);
      void queryClient.invalidateQueries({ queryKey: keys.receivers.all });
    },
  });
  if (environment.data?.sandbox !== true || receiver.kycStatus === 'APPROVED') return null;
  return (
    // A note, not an alert (Mantine's default role): it is there from the page's first render, and
    // an alert would interrupt a screen reader with it on every visit.
    <Alert color="blue" title={t('receivers.sandboxTitle')} role="note">
      <Stack gap="xs">
        <Text size="sm">{t('receivers.sandboxKycHint')}</Text>
        {approve.error ? <ErrorAlert error={approve.error} /> : null}
        <Button size="xs" onClick={() => approve.mutate()} loading={approve.isPending} disabled={!mayDrive} w="fit-content">
          {t('receivers.sandboxApproveKyc')}
        </Button>
      </Stack>
    </Alert>
  );
}
