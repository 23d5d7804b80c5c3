/**
 * Disabling a merchant (POST /admin/merchants/{id}/disable, after a confirmation) and proposing
 * its enabling again: enabling is a four-eyes action (POST /admin/merchants/{id}/enable is 403
 * FOUR_EYES_REQUIRED for an operator), so the page proposes it (POST /admin/approvals
 * {action: 'MERCHANT_ENABLE', targetId, reason}) and another operator decides on the Approvals page.
 * Both need `merchants.manage`.
 */
import { Alert, Button, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { useOperatorMay } from '../../api/operator-session.ts';
import type { components } from '../../api/schema.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { READABLE, TONE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';
import { ConfirmModal } from '../developers/confirm-modal.tsx';
import { proposeApproval } from './approvals-api.ts';
import { opsKeys } from '../../api/query-keys.ts';

type Merchant = components['schemas']['Merchant'];

export function MerchantStatusActions({ merchant }: { merchant: Merchant }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const may = useOperatorMay('merchants.manage');
  const [confirming, setConfirming] = useState(false);
  const [reason, setReason] = useState('');
  const disable = useMutation({
    mutationFn: () => call(api.POST('/admin/merchants/{id}/disable', { params: { path: { id: merchant.id } } })),
    onSuccess: async () => {
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: opsKeys.merchants.all });
      await queryClient.invalidateQueries({ queryKey: opsKeys.merchant(merchant.id) });
    },
  });
  const propose = useMutation({ mutationFn: () => proposeApproval({ action: 'MERCHANT_ENABLE', targetId: merchant.id, reason: reason.trim() }), onSuccess: () => setReason('') });

  return (
    <Stack component="section" aria-labelledby="merchant-status-heading">
      <Title order={2} id="merchant-status-heading">{t('opsMerchants.statusActions')}</Title>
      {!may ? <Text>{t('ops.notAllowed')}</Text> : null}
      {merchant.status === 'ACTIVE' ? (
        <>
          <Text>{t('opsMerchants.disableText')}</Text>
          {disable.error ? <ErrorAlert error={disable.error} /> : null}
          <Button color={TONE.bad} disabled={!may} onClick={() => setConfirming(true)} w="fit-content">
            {t('opsMerchants.disable')}
          </Button>
          <ConfirmModal
            opened={confirming}
            title={t('opsMerchants.disableTitle', { name: merchant.name })}
            text={t('opsMerchants.disableText')}
            confirm={t('opsMerchants.disable')}
            busy={disable.isPending}
            onConfirm={() => disable.mutate()}
            onClose={() => setConfirming(false)}
          />
        </>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (reason.trim()) propose.mutate();
          }}
        >
          <Stack gap="xs" maw={560}>
            <Text>{t('opsMerchants.enableText')}</Text>
            <Textarea label={t('opsMerchants.enableReason')} value={reason} onChange={(event) => setReason(event.currentTarget.value)} required disabled={!may} autosize minRows={2} styles={READABLE} />
            {propose.error ? <ErrorAlert error={propose.error} /> : null}
            {propose.isSuccess ? <Alert color="green" role="status">{t('opsMerchants.proposed')}</Alert> : null}
            <Button type="submit" disabled={!may || !reason.trim()} loading={propose.isPending} w="fit-content">
              {t('opsMerchants.proposeEnable')}
            </Button>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
