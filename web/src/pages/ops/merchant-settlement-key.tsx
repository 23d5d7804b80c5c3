/**
 * A merchant's settlement PIX key in the back office (docs/decisions/0044): the key settlements are
 * paid to now and one waiting for approval (GET /admin/merchants/{id}/settlement-pix-keys, masked
 * as the API answers them), and the form that asks for a new one (POST …/settlement-pix-key: the
 * key PENDING and a SETTLEMENT_PIX_KEY proposal, which another operator approves on the Approvals
 * page, never the one who asked). Asking needs `treasury.manage`; without it the form is disabled.
 */
import { Alert, Anchor, Button, Group, NativeSelect, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { useOperatorMay } from '../../api/operator-session.ts';
import { opsKeys } from '../../api/query-keys.ts';
import type { components } from '../../api/schema.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Facts } from '../../components/facts.tsx';
import { Loading } from '../../components/loading.tsx';
import { READABLE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';

type Key = components['schemas']['SettlementPixKey'];
type KeyType = components['schemas']['SettlementPixKeyRequest']['pixKeyType'];
const KEY_TYPES: readonly KeyType[] = ['CNPJ', 'CPF', 'EMAIL', 'PHONE', 'EVP'];
const EMPTY = { pixKeyType: 'CNPJ' as KeyType, pixKey: '', holderDocument: '', reason: '' };

/** One key as the API shows it to operators: masked, with its holder. */
export function KeyFacts({ settlementKey }: { settlementKey: Key }) {
  const { t } = useI18n();
  return (
    <Facts
      rows={[
        [t('settlementKey.key'), <code key="k">{settlementKey.pixKey}</code>],
        [t('settlementKey.type'), settlementKey.pixKeyType],
        [t('settlementKey.holder'), settlementKey.holderDocument],
        [t('settlementKey.requestedAt'), formatDateTime(settlementKey.requestedAt)],
        ...(settlementKey.activatedAt ? [[t('settlementKey.activatedAt'), formatDateTime(settlementKey.activatedAt)] as [string, string]] : []),
      ]}
    />
  );
}

export function MerchantSettlementKey({ merchantId }: { merchantId: string }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const may = useOperatorMay('treasury.manage');
  const listKey = opsKeys.merchant(merchantId, 'settlement-pix-keys');
  const keys = useQuery({ queryKey: listKey, queryFn: () => call(api.GET('/admin/merchants/{id}/settlement-pix-keys', { params: { path: { id: merchantId } } })) });
  const [form, setForm] = useState(EMPTY);
  const request = useMutation({
    mutationFn: () => call(api.POST('/admin/merchants/{id}/settlement-pix-key', { params: { path: { id: merchantId } }, body: { ...form, pixKey: form.pixKey.trim(), holderDocument: form.holderDocument.trim(), reason: form.reason.trim() } })),
    onSuccess: async () => {
      setForm(EMPTY);
      await queryClient.invalidateQueries({ queryKey: listKey });
    },
  });
  const active = keys.data?.data.find((key) => key.status === 'ACTIVE');
  const pending = keys.data?.data.find((key) => key.status === 'PENDING');
  const field = (name: 'pixKey' | 'holderDocument') => (
    <TextInput label={t(`settlementKey.form.${name}`)} value={form[name]} onChange={(event) => setForm({ ...form, [name]: event.currentTarget.value })} required disabled={!may} />
  );

  return (
    <Stack component="section" aria-labelledby="merchant-settlement-key-heading">
      <Title order={2} id="merchant-settlement-key-heading">{t('settlementKey.title')}</Title>
      <Text>{t('settlementKey.opsIntro')}</Text>
      {keys.error ? <ErrorAlert error={keys.error} /> : null}
      {keys.isPending ? <Loading /> : null}
      {keys.data ? (
        <Stack gap="xs" data-testid="ops-settlement-key-state">
          <Title order={3}>{t('settlementKey.current')}</Title>
          {active ? <KeyFacts settlementKey={active} /> : <Text>{t('settlementKey.none')}</Text>}
          {pending ? (
            <>
              <Title order={3}>{t('settlementKey.pending')}</Title>
              <KeyFacts settlementKey={pending} />
              <Anchor component={Link} to="/ops/approvals" w="fit-content">
                {t('settlementKey.toApprovals')}
              </Anchor>
            </>
          ) : null}
        </Stack>
      ) : null}
      <form
        aria-labelledby="settlement-key-form-heading"
        onSubmit={(event) => {
          event.preventDefault();
          request.mutate();
        }}
      >
        <Stack gap="xs" maw={560}>
          <Title order={3} id="settlement-key-form-heading">{t('settlementKey.form.title')}</Title>
          {!may ? <Text>{t('settlementKey.form.notAllowed')}</Text> : null}
          <Group align="flex-end" grow>
            <NativeSelect label={t('settlementKey.type')} value={form.pixKeyType} onChange={(event) => setForm({ ...form, pixKeyType: event.currentTarget.value as KeyType })} data={KEY_TYPES.map((type) => ({ value: type, label: type }))} disabled={!may} />
            {field('pixKey')}
          </Group>
          {field('holderDocument')}
          <Textarea label={t('settlementKey.form.reason')} description={t('settlementKey.form.reasonHint')} value={form.reason} onChange={(event) => setForm({ ...form, reason: event.currentTarget.value })} required disabled={!may} autosize minRows={2} styles={READABLE} />
          {request.error ? <ErrorAlert error={request.error} /> : null}
          {request.isSuccess ? <Alert color="green" role="status">{t('settlementKey.form.requested')}</Alert> : null}
          <Button type="submit" disabled={!may || !form.pixKey.trim() || !form.holderDocument.trim() || form.reason.trim().length < 3} loading={request.isPending} w="fit-content">
            {t('settlementKey.form.submit')}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}
