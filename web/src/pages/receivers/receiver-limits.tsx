/**
 * A receiver's limits and today's usage of them (GET /receivers/{id}/limits: `ordersToday` and
 * `usedTodayBrl` are what order creation counts, for the São Paulo day `usageDay`), and, for a
 * role with `payments.write`, the form replacing them (PUT /receivers/{id}/limits).
 */
import { Button, Checkbox, Group, Stack, Table, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { fieldErrors } from '../../api/field-errors.ts';
import { useMay } from '../../api/permissions.ts';
import type { components } from '../../api/schema.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { READABLE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl, formatDate } from '../../i18n/format.ts';
import { keys } from '../../api/query-keys.ts';

type Limits = components['schemas']['ReceiverLimits'];

function LimitsForm({ limits, onDone }: { limits: Limits; onDone: () => void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  // Amounts stay text end to end: the API takes decimal text, and nothing here computes with them.
  const [dailyLimitBrl, setDailyLimitBrl] = useState(limits.dailyLimitBrl === null ? '' : String(limits.dailyLimitBrl));
  const [dailyTransactionLimit, setDailyTransactionLimit] = useState(limits.dailyTransactionLimit === null ? '' : String(limits.dailyTransactionLimit));
  const [night, setNight] = useState(limits.nightTransactionsEnabled);
  const save = useMutation({
    mutationFn: () =>
      call(
        api.PUT('/receivers/{id}/limits', {
          params: { path: { id: limits.receiverId } },
          body: {
            dailyLimitBrl: dailyLimitBrl.trim() === '' ? null : dailyLimitBrl.trim().replace(',', '.'),
            // A non-integer is sent as is (NaN is not JSON): the API names the field.
            dailyTransactionLimit: dailyTransactionLimit.trim() === '' ? null : (Number(dailyTransactionLimit) as number),
            nightTransactionsEnabled: night,
          },
        }),
      ),
    onSuccess: (saved) => {
      queryClient.setQueryData(keys.receivers.limits(limits.receiverId), saved);
      void queryClient.invalidateQueries({ queryKey: keys.receivers.detail(limits.receiverId) });
      onDone();
    },
  });
  const errors = fieldErrors(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} aria-label={t('receivers.editLimits')}>
      <Stack>
        {save.error && Object.keys(errors).length === 0 ? <ErrorAlert error={save.error} /> : null}
        <TextInput
          label={t('receivers.dailyLimitBrl')}
          description={t('receivers.emptyIsNoLimit')}
          styles={READABLE}
          inputMode="decimal"
          value={dailyLimitBrl}
          onChange={(event) => setDailyLimitBrl(event.currentTarget.value)}
          error={errors.dailyLimitBrl}
        />
        <TextInput
          label={t('receivers.dailyTransactionLimit')}
          description={t('receivers.emptyIsNoLimit')}
          styles={READABLE}
          inputMode="numeric"
          value={dailyTransactionLimit}
          onChange={(event) => setDailyTransactionLimit(event.currentTarget.value)}
          error={errors.dailyTransactionLimit}
        />
        <Checkbox label={t('receivers.nightTransactions')} checked={night} onChange={(event) => setNight(event.currentTarget.checked)} />
        <Group>
          <Button type="submit" loading={save.isPending}>{t('receivers.save')}</Button>
          <Button variant="default" onClick={onDone}>{t('receivers.cancel')}</Button>
        </Group>
      </Stack>
    </form>
  );
}

export function LimitsCard({ receiverId }: { receiverId: string }) {
  const { t, language } = useI18n();
  const mayWrite = useMay('payments.write');
  const [editing, setEditing] = useState(false);
  const limits = useQuery({ queryKey: keys.receivers.limits(receiverId), queryFn: () => call(api.GET('/receivers/{id}/limits', { params: { path: { id: receiverId } } })) });
  const noLimit = t('receivers.noLimit');

  return (
    <>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h3" id="limits-heading">{t('receivers.limits')}</Title>
        {limits.data && !editing ? (
          <Button size="xs" variant="default" onClick={() => setEditing(true)} disabled={!mayWrite}>
            {t('receivers.editLimits')}
          </Button>
        ) : null}
      </Group>
      {limits.error ? <ErrorAlert error={limits.error} /> : null}
      {limits.isPending ? <Loading /> : null}
      {limits.data && editing ? <LimitsForm limits={limits.data} onDone={() => setEditing(false)} /> : null}
      {limits.data && !editing ? (
        <Table withTableBorder>
          <caption>{t('receivers.usageCaption', { day: formatDate(`${limits.data.usageDay}T12:00:00Z`) })}</caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('receivers.limit')}</Table.Th>
              <Table.Th scope="col">{t('receivers.allowed')}</Table.Th>
              <Table.Th scope="col">{t('receivers.usedToday')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <Table.Tr>
              <Table.Th scope="row">{t('receivers.dailyLimitBrl')}</Table.Th>
              <Table.Td>{limits.data.dailyLimitBrl === null ? noLimit : formatBrl(limits.data.dailyLimitBrl, language)}</Table.Td>
              <Table.Td>{formatBrl(limits.data.usedTodayBrl, language)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row">{t('receivers.dailyTransactionLimit')}</Table.Th>
              <Table.Td>{limits.data.dailyTransactionLimit === null ? noLimit : String(limits.data.dailyTransactionLimit)}</Table.Td>
              <Table.Td>{String(limits.data.ordersToday)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row">{t('receivers.nightTransactions')}</Table.Th>
              <Table.Td colSpan={2}>{limits.data.nightTransactionsEnabled ? t('common.yes') : t('common.no')}</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      ) : null}
    </>
  );
}
