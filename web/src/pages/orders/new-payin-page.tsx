/**
 * A new PAYIN: POST /payin with an Idempotency-Key, then the new order's page (its PIX code).
 * The key is made once per version of the form: a double click or a retry after a lost answer
 * replays the first order instead of making a second one, and any change to the form takes a new
 * key (the same key with another body is 409 IDEMPOTENCY_CONFLICT).
 */
import { Anchor, Button, Card, NativeSelect, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, call } from '../../api/client.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { brlBound } from './filters.ts';
import { environmentQuery } from '../../api/environment.ts';
import { READABLE } from '../../components/readable.ts';
import { receiverChoicesQuery } from './receivers-query.ts';
import { keys } from '../../api/query-keys.ts';

function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `dashboard-payin-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

export function NewPayinPage() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const receivers = useQuery(receiverChoicesQuery);
  const environment = useQuery(environmentQuery);
  const [form, setForm] = useState({ receiverId: '', amountBrl: '', targetToken: '', externalId: '', destinationWallet: '' });
  const [key, setKey] = useState(newKey);
  const [submitted, setSubmitted] = useState(false);
  const set = (field: keyof typeof form) => (event: { currentTarget: { value: string } }) => {
    const { value } = event.currentTarget;
    setForm((current) => ({ ...current, [field]: value }));
    setKey(newKey());
  };

  const eligible = (receivers.data?.data ?? []).filter((receiver) => receiver.status === 'ACTIVE' && receiver.kycStatus === 'APPROVED');
  const tokens = environment.data?.tokens ?? [];
  const amount = brlBound(form.amountBrl);

  const create = useMutation({
    mutationFn: () =>
      call(
        api.POST('/payin', {
          params: { header: { 'idempotency-key': key } },
          body: {
            receiverId: form.receiverId,
            amountBrl: amount!,
            ...(form.targetToken ? { targetToken: form.targetToken } : {}),
            ...(form.externalId.trim() ? { externalId: form.externalId.trim() } : {}),
            ...(form.destinationWallet.trim() ? { destinationWallet: form.destinationWallet.trim() } : {}),
          },
        }),
      ),
    onSuccess: async (order) => {
      await queryClient.invalidateQueries({ queryKey: keys.orders.all });
      queryClient.setQueryData(keys.orders.detail(order.id), order);
      await navigate({ to: '/orders/$id', params: { id: order.id } });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!form.receiverId || !amount) return;
    create.mutate();
  };

  return (
    <Stack maw={640}>
      <Anchor component={Link} to="/orders">← {t('common.back')}</Anchor>
      <Title order={1}>{t('orders.new.title')}</Title>
      <Text>{t('orders.new.intro')}</Text>
      {receivers.error ? <ErrorAlert error={receivers.error} /> : null}
      {receivers.isPending ? <Loading /> : null}
      {receivers.data && eligible.length === 0 ? <Text role="status">{t('orders.new.noReceivers')}</Text> : null}
      <Card withBorder component="form" onSubmit={submit} noValidate>
        <Stack>
          <NativeSelect
            label={t('orders.new.receiver')}
            description={t('orders.new.receiverHint')}
            styles={READABLE}
            required
            value={form.receiverId}
            onChange={set('receiverId')}
            error={submitted && !form.receiverId ? t('orders.new.required') : undefined}
            data={[{ value: '', label: '—' }, ...eligible.map((receiver) => ({ value: receiver.id, label: `${receiver.name} (${receiver.document})` }))]}
          />
          <TextInput
            label={t('orders.new.amount')}
            description={t('orders.new.amountHint')}
            styles={READABLE}
            required
            inputMode="decimal"
            value={form.amountBrl}
            onChange={set('amountBrl')}
            error={(submitted || form.amountBrl) && !amount ? t('orders.filter.amountInvalid') : undefined}
          />
          <NativeSelect label={t('orders.new.token')} value={form.targetToken || tokens[0] || ''} onChange={set('targetToken')} data={tokens.length > 0 ? tokens : ['USDC']} />
          <TextInput label={t('orders.new.externalId')} maxLength={128} value={form.externalId} onChange={set('externalId')} />
          <TextInput label={t('orders.new.destinationWallet')} description={t('orders.new.destinationWalletHint')} styles={READABLE} maxLength={44} value={form.destinationWallet} onChange={set('destinationWallet')} ff="monospace" />
          {create.error ? <ErrorAlert error={create.error} /> : null}
          <Button type="submit" loading={create.isPending} disabled={eligible.length === 0}>
            {t('orders.new.submit')}
          </Button>
        </Stack>
      </Card>
    </Stack>
  );
}
