/**
 * Merchants (/app/ops/merchants): the list (GET /admin/merchants, 20 a page) and a new merchant
 * (POST /admin/merchants, `merchants.manage`), whose first API key's secret is shown once in a
 * modal (secret-modal.tsx: page state only, never the query cache).
 */
import { Anchor, Badge, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, call } from '../../api/client.ts';
import { useOperatorMay } from '../../api/operator-session.ts';
import { opsKeys } from '../../api/query-keys.ts';
import type { components } from '../../api/schema.ts';
import { DataTable, ListState, PagePager, type Column } from '../../components/data-table.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { TONE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import { SecretModal, type ShownSecret } from '../developers/secret-modal.tsx';

const LIMIT = 20;
type Merchant = components['schemas']['Merchant'];

export function MerchantStatusBadge({ status }: { status: 'ACTIVE' | 'DISABLED' }) {
  const { t } = useI18n();
  return <Badge variant="filled" color={status === 'ACTIVE' ? TONE.ok : TONE.bad}>{t(`opsMerchants.${status}`)}</Badge>;
}

export function MerchantsPage() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const may = useOperatorMay('merchants.manage');
  const [page, setPage] = useState(1);
  const [name, setName] = useState('');
  const [shown, setShown] = useState<ShownSecret | null>(null);
  const merchants = useQuery({
    queryKey: opsKeys.merchants.page(page),
    queryFn: () => call(api.GET('/admin/merchants', { params: { query: { page, limit: LIMIT } } })),
    placeholderData: keepPreviousData,
  });
  const create = useMutation({
    mutationFn: async () => {
      const { merchant, credential } = await call(api.POST('/admin/merchants', { body: { name: name.trim() } }));
      setShown({ title: t('opsMerchants.secretTitle', { name: merchant.name }), context: t('opsMerchants.apiKey', { key: credential.apiKey }), value: credential.apiSecret });
    },
    onSuccess: async () => {
      setName('');
      await queryClient.invalidateQueries({ queryKey: opsKeys.merchants.all });
    },
  });
  const columns: Column<Merchant>[] = [
    { id: 'name', header: t('opsMerchants.name'), cell: (merchant) => <Anchor renderRoot={(props) => <Link {...props} to="/ops/merchants/$id" params={{ id: merchant.id }} />}>{merchant.name}</Anchor> },
    { id: 'status', header: t('opsMerchants.status'), cell: (merchant) => <MerchantStatusBadge status={merchant.status} /> },
    { id: 'createdAt', header: t('opsMerchants.createdAt'), cell: (merchant) => formatDateTime(merchant.createdAt) },
  ];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };

  return (
    <Stack>
      <Title order={1}>{t('opsMerchants.title')}</Title>
      <Stack component="section" aria-labelledby="new-merchant-heading">
        <Title order={2} id="new-merchant-heading">{t('opsMerchants.new')}</Title>
        <form onSubmit={submit}>
          <Group align="flex-end">
            <TextInput label={t('opsMerchants.name')} value={name} onChange={(event) => setName(event.currentTarget.value)} required minLength={2} maxLength={255} disabled={!may} w={320} />
            <Button type="submit" disabled={!may || name.trim().length < 2} loading={create.isPending}>
              {t('opsMerchants.create')}
            </Button>
          </Group>
        </form>
        {!may ? <Text>{t('ops.notAllowed')}</Text> : null}
        {create.error ? <ErrorAlert error={create.error} /> : null}
      </Stack>
      <ListState query={merchants} isEmpty={(data) => data.data.length === 0} empty={t('opsMerchants.caption', { total: 0 })}>
        {(data) => (
          <>
            <DataTable caption={t('opsMerchants.caption', { total: data.total })} columns={columns} rows={data.data} rowKey={(merchant) => merchant.id} minWidth={480} />
            <PagePager page={page} totalPages={Math.max(1, Math.ceil(data.total / LIMIT))} onChange={setPage} label={t('opsMerchants.title')} />
          </>
        )}
      </ListState>
      <SecretModal secret={shown} onClose={() => setShown(null)} />
    </Stack>
  );
}
