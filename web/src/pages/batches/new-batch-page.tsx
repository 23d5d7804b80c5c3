/**
 * A new payout batch from a CSV file: the file is sent as it is (POST /payout-batches, Content-Type
 * text/csv, with an Idempotency-Key) and the API does all the checking, so no rule is repeated
 * here. A file in a broken format is 400 naming every broken line, and nothing is stored: those
 * lines are listed on this page. Otherwise the batch is stored VALIDATED (nothing moves) and its
 * page shows each line's result, with the buttons to confirm or discard it.
 */
import { Anchor, Button, Code, Input, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, call } from '../../api/client.ts';
import { isApiError } from '../../api/errors.ts';
import { useMay } from '../../api/permissions.ts';
import { keys } from '../../api/query-keys.ts';
import { DataTable } from '../../components/data-table.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { READABLE } from '../../components/readable.ts';
import { Section } from '../../components/section.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { idempotencyKey } from './idempotency.ts';

/** The upload's columns (the API's, src/modules/payout-batches/csv.ts), with an example line. */
const TEMPLATE = 'receiverId,amountCrypto,token,externalId,pixKey,pixKeyType,recipientName\n00000000-0000-7000-8000-000000000000,25.50,USDC,invoice-0001,,,\n';
const TEMPLATE_HREF = `data:text/csv;charset=utf-8,${encodeURIComponent(TEMPLATE)}`;

/** A 400's details as the lines it names: `line 3.amountCrypto` → must match…, in the file's order. */
function brokenLines(error: unknown): Array<[string, string]> | undefined {
  if (!isApiError(error) || error.status !== 400 || !error.details) return undefined;
  const entries = Object.entries(error.details).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
  const line = (where: string) => Number(/^line (\d+)/.exec(where)?.[1] ?? 0);
  return entries.sort((a, b) => line(a[0]) - line(b[0]));
}

export function NewBatchPage() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const mayWrite = useMay('payments.write');
  const [file, setFile] = useState<File | null>(null);
  const [missing, setMissing] = useState(false);

  const upload = useMutation({
    mutationFn: async (csv: string) =>
      call(
        api.POST('/payout-batches', {
          params: { header: { 'idempotency-key': idempotencyKey('upload') } },
          body: csv,
          bodySerializer: (body) => body as string,
          headers: { 'content-type': 'text/csv' },
        }),
      ),
    onSuccess: async (batch) => {
      await queryClient.invalidateQueries({ queryKey: keys.payoutBatches.lists });
      queryClient.setQueryData(keys.payoutBatches.detail(batch.id), batch);
      await navigate({ to: '/payout-batches/$id', params: { id: batch.id } });
    },
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setMissing(!file);
    if (file) upload.mutate(await file.text());
  };
  const broken = brokenLines(upload.error);

  return (
    <Stack maw={900}>
      <Anchor component={Link} to="/payout-batches">← {t('batches.detail.back')}</Anchor>
      <Title order={1}>{t('batches.upload.title')}</Title>
      <Text>{t('batches.upload.intro')}</Text>
      <Section id="batch-template-heading" title={t('batches.upload.example')}>
        <Text size="sm" mb="xs">{t('batches.upload.columns')}</Text>
        <Code block mb="xs" data-testid="batch-template">{TEMPLATE}</Code>
        <Anchor href={TEMPLATE_HREF} download="payout-batch-template.csv">{t('batches.upload.template')}</Anchor>
      </Section>
      {mayWrite ? (
        <form onSubmit={submit} aria-label={t('batches.upload.title')} noValidate>
          <Stack>
            <div>
              <Input.Label htmlFor="batch-file">{t('batches.upload.file')}</Input.Label>
              <Input.Description id="batch-file-hint" style={READABLE.description}>{t('batches.upload.fileHint')}</Input.Description>
              <input
                id="batch-file"
                type="file"
                accept=".csv,text/csv"
                aria-describedby={missing ? 'batch-file-hint batch-file-error' : 'batch-file-hint'}
                aria-invalid={missing}
                onChange={(event) => {
                  setFile(event.currentTarget.files?.[0] ?? null);
                  setMissing(false);
                  upload.reset();
                }}
                style={{ display: 'block', marginTop: 4 }}
              />
              {missing ? <Input.Error id="batch-file-error" style={READABLE.error}>{t('batches.upload.fileRequired')}</Input.Error> : null}
            </div>
            <div>
              <Button type="submit" loading={upload.isPending}>{t('batches.upload.submit')}</Button>
            </div>
          </Stack>
        </form>
      ) : (
        <Text>{t('batches.mayNotWrite')}</Text>
      )}
      {upload.isPending ? <Text role="status">{t('batches.upload.pending')}</Text> : null}
      {upload.error && !broken ? <ErrorAlert error={upload.error} /> : null}
      {broken ? (
        <Stack gap="xs" data-testid="batch-broken">
          <Text role="alert" fw={700}>{t('batches.upload.broken')}</Text>
          <DataTable
            caption={t('batches.upload.brokenCaption')}
            columns={[
              { id: 'where', header: t('batches.upload.where'), rowHeader: true, width: 220, cell: ([where]) => where },
              { id: 'problem', header: t('batches.upload.problem'), cell: ([, problem]) => problem },
            ]}
            rows={broken}
            rowKey={([where]) => where}
            minWidth={480}
          />
        </Stack>
      ) : null}
    </Stack>
  );
}
