/**
 * The merchant's batch approval threshold (GET/PUT /payout-batch-settings): above it a batch waits
 * for a second person. Everyone reads it; the form is an OWNER's, the API's own rule (it answers
 * 403 ROLE_NOT_ALLOWED to another role), read from the session's role. The amount's form is the
 * API's to check (a 400 names the field): the page only sends what was typed, empty as null.
 */
import { Alert, Button, Group, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call } from '../../api/client.ts';
import { keys } from '../../api/query-keys.ts';
import { sessionQuery } from '../../api/session.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { READABLE } from '../../components/readable.ts';
import { Section } from '../../components/section.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatBrl } from '../../i18n/format.ts';
import { idempotencyKey } from './idempotency.ts';

export function ThresholdSection() {
  const { t, language } = useI18n();
  const queryClient = useQueryClient();
  const session = useQuery(sessionQuery);
  const settings = useQuery({ queryKey: keys.payoutBatches.settings, queryFn: () => call(api.GET('/payout-batch-settings')) });
  const [value, setValue] = useState<string | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  const isOwner = session.data?.user.role === 'OWNER';
  const current = settings.data?.approvalThresholdBrl ?? null;
  const shown = value ?? current ?? '';

  const save = useMutation({
    mutationFn: () =>
      call(api.PUT('/payout-batch-settings', { params: { header: { 'idempotency-key': idempotencyKey('threshold') } }, body: { approvalThresholdBrl: shown.trim() === '' ? null : shown.trim() } })),
    onSuccess: (answer) => {
      queryClient.setQueryData(keys.payoutBatches.settings, answer);
      setValue(undefined);
      setSaved(true);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    save.mutate();
  };

  return (
    <Section id="batch-threshold-heading" title={t('batches.threshold.title')}>
      {settings.error ? <ErrorAlert error={settings.error} /> : null}
      {settings.isPending ? <Loading /> : null}
      {settings.data ? (
        <Text mb="sm" data-testid="batch-threshold">{current === null ? t('batches.threshold.none') : t('batches.threshold.current', { amount: formatBrl(current, language) })}</Text>
      ) : null}
      {settings.data && isOwner ? (
        <form onSubmit={submit} aria-label={t('batches.threshold.title')}>
          <Group align="flex-end">
            <TextInput
              label={t('batches.threshold.label')}
              description={t('batches.threshold.hint')}
              inputMode="decimal"
              value={shown}
              onChange={(event) => {
                setValue(event.currentTarget.value);
                setSaved(false);
              }}
              styles={READABLE}
            />
            <Button type="submit" loading={save.isPending}>{t('batches.threshold.save')}</Button>
          </Group>
          {save.error ? <ErrorAlert error={save.error} /> : null}
          {saved ? <Alert color="green" mt="sm" role="status">{t('batches.threshold.saved')}</Alert> : null}
        </form>
      ) : null}
      {settings.data && session.data && !isOwner ? <Text size="sm">{t('batches.threshold.ownerOnly')}</Text> : null}
    </Section>
  );
}
