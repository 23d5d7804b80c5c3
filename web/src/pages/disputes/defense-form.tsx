/**
 * The defence form: a justification and up to 10 pieces of evidence (a description, an optional
 * link and an optional document hash), rows added and removed. Checked before sending against the
 * API's limits (defense-rules.ts), each problem shown at its field; the API's own field errors
 * (`apiProblems`) too. Sends with an Idempotency-Key made once per version of the form, so a double
 * click or a retry after a lost answer (503 from the PSP) does not defend twice, and an edit takes
 * a new key (the same key with another body would be 409 IDEMPOTENCY_CONFLICT).
 */
import { ActionIcon, Button, Card, Group, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { READABLE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';
import { checkDefense, defenseBody, length, LIMITS, type DefenseBody, type EvidenceRow, type Problems } from './defense-rules.ts';

function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `dashboard-defense-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

let nextRow = 0;
const emptyRow = (): EvidenceRow => ({ key: nextRow++, description: '', url: '', sha256: '' });

export function DefenseForm({ pending, apiProblems, onSubmit }: { pending: boolean; apiProblems: Record<string, string>; onSubmit: (body: DefenseBody, idempotencyKey: string) => void }) {
  const { t } = useI18n();
  const [justification, setJustification] = useState('');
  const [rows, setRows] = useState<EvidenceRow[]>([]);
  const [key, setKey] = useState(newKey);
  const [tried, setTried] = useState(false);
  const problems: Problems = tried ? checkDefense(justification, rows) : {};
  const errorAt = (field: string): string | undefined => (problems[field] ? t(`disputes.invalid.${problems[field]}`) : apiProblems[field]);

  const edit = (change: () => void) => {
    change();
    setKey(newKey());
  };
  const setRow = (index: number, field: 'description' | 'url' | 'sha256', value: string) =>
    edit(() => setRows((current) => current.map((row, at) => (at === index ? { ...row, [field]: value } : row))));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (Object.keys(checkDefense(justification, rows)).length > 0) return;
    onSubmit(defenseBody(justification, rows), key);
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('disputes.detail.defense')}>
      <Stack gap="md">
        <Text size="sm">{t('disputes.form.intro')}</Text>
        <Textarea
          label={t('disputes.form.justification')}
          description={t('disputes.form.justificationHint', { count: length(justification.trim()) })}
          value={justification}
          onChange={(event) => {
            const { value } = event.currentTarget;
            edit(() => setJustification(value));
          }}
          error={errorAt('justification')}
          autosize
          minRows={4}
          required
          styles={READABLE}
        />
        <Stack component="fieldset" gap="sm" style={{ border: 0, padding: 0, margin: 0 }}>
          <Title order={3} size="h4" component="legend">{t('disputes.form.evidenceLegend', { count: rows.length })}</Title>
          {rows.map((row, index) => {
            const n = index + 1;
            return (
              <Card withBorder key={row.key} data-testid="evidence-row" component="section" aria-label={t('disputes.form.evidenceRow', { n })}>
                <Group justify="space-between" mb="xs">
                  <Text fw={600} size="sm">{t('disputes.form.evidenceRow', { n })}</Text>
                  <ActionIcon variant="default" onClick={() => edit(() => setRows((current) => current.filter((_, at) => at !== index)))} aria-label={t('disputes.form.remove', { n })}>
                    <span aria-hidden="true">✕</span>
                  </ActionIcon>
                </Group>
                <Stack gap="xs">
                  <TextInput label={t('disputes.form.description', { n })} description={t('disputes.form.descriptionHint')} value={row.description} onChange={(event) => setRow(index, 'description', event.currentTarget.value)} error={errorAt(`evidence.${index}.description`)} required styles={READABLE} />
                  <TextInput label={t('disputes.form.url', { n })} description={t('disputes.form.urlHint')} type="url" value={row.url} onChange={(event) => setRow(index, 'url', event.currentTarget.value)} error={errorAt(`evidence.${index}.url`)} styles={READABLE} />
                  <TextInput label={t('disputes.form.sha256', { n })} description={t('disputes.form.sha256Hint')} value={row.sha256} onChange={(event) => setRow(index, 'sha256', event.currentTarget.value)} error={errorAt(`evidence.${index}.sha256`)} ff="monospace" styles={READABLE} />
                </Stack>
              </Card>
            );
          })}
          <Group>
            <Button variant="default" onClick={() => edit(() => setRows((current) => [...current, emptyRow()]))} disabled={rows.length >= LIMITS.evidenceMax}>
              {t('disputes.form.add')}
            </Button>
            {rows.length >= LIMITS.evidenceMax ? <Text size="sm">{t('disputes.form.max')}</Text> : null}
          </Group>
        </Stack>
        {Object.keys(problems).length > 0 ? <Text role="alert" c="red.9" size="sm">{t('disputes.form.fix')}</Text> : null}
        <Group>
          <Button type="submit" loading={pending}>{t('disputes.form.submit')}</Button>
        </Group>
      </Stack>
    </form>
  );
}
