/**
 * The platform's audit log (/app/ops/audit-log, GET /admin/audit-log): newest first, filtered by
 * actor, action, target type and id, merchant and a São Paulo date range; paged by the API's
 * cursor. Each entry: time, actor (an operator by email), action, target and what changed
 * (components/audit-log-table.tsx, the team's log's table too). "Export CSV" is a plain link to
 * GET /admin/audit-log/export with the same filters: the browser downloads it with the operator's
 * cookie (Path=/api/v1/admin); shown only to an operator with `reports.export` (the API refuses
 * the others and records every export).
 */
import { Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { API_BASE, api, call } from '../../api/client.ts';
import { useOperatorMay } from '../../api/operator-session.ts';
import { opsKeys } from '../../api/query-keys.ts';
import { AuditLogTable } from '../../components/audit-log-table.tsx';
import { ExportButton } from '../../components/data-table.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { saoPauloDayEndExclusive, saoPauloDayStart } from '../../lib/sao-paulo-day.ts';
import { present } from './ops-format.ts';
import { useActorName } from './operators-query.ts';

type Field = 'actor' | 'action' | 'targetType' | 'targetId' | 'merchantId' | 'from' | 'to';
type Form = Record<Field, string>;
const EMPTY: Form = { actor: '', action: '', targetType: '', targetId: '', merchantId: '', from: '', to: '' };

/** The form's values as the API's query: trimmed, empty ones left out, days as instants. */
function toQuery(form: Form) {
  const { from, to, ...rest } = form;
  return present({
    ...Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, value.trim()])),
    from: from ? saoPauloDayStart(from) : undefined,
    to: to ? saoPauloDayEndExclusive(to) : undefined,
  }) as Partial<Record<Field, string>>;
}

export function AuditLogPage() {
  const { t } = useI18n();
  const actorName = useActorName();
  const [form, setForm] = useState<Form>(EMPTY);
  const [filters, setFilters] = useState<ReturnType<typeof toQuery>>({});
  const [cursor, setCursor] = useState<string>();
  const log = useQuery({
    queryKey: opsKeys.auditLog({ ...filters, cursor }),
    queryFn: () => call(api.GET('/admin/audit-log', { params: { query: { limit: 50, ...filters, ...(cursor ? { cursor } : {}) } } })),
  });
  const mayExport = useOperatorMay('reports.export');
  const exportHref = `${API_BASE}/admin/audit-log/export?${new URLSearchParams(filters as Record<string, string>).toString()}`;
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(toQuery(form));
    setCursor(undefined);
  };
  const field = (name: Field, type = 'text') => (
    <TextInput key={name} label={t(`opsAudit.${name}`)} type={type} value={form[name]} onChange={(event) => setForm({ ...form, [name]: event.currentTarget.value })} />
  );

  return (
    <Stack>
      <Title order={1}>{t('opsAudit.title')}</Title>
      <form onSubmit={apply} role="search" aria-label={t('opsAudit.filters')}>
        <Group align="flex-end">
          {field('actor')}
          {field('action')}
          {field('targetType')}
          {field('targetId')}
          {field('merchantId')}
          {field('from', 'date')}
          {field('to', 'date')}
          <Button type="submit">{t('opsAudit.apply')}</Button>
        </Group>
      </form>
      {mayExport ? <ExportButton href={exportHref} label={t('opsAudit.export')} /> : null}
      <AuditLogTable
        log={log}
        texts="opsAudit"
        actorName={actorName}
        targetName={(entry) => `${entry.targetType} ${entry.targetId ?? ''}`.trim()}
        cursor={cursor}
        onCursor={setCursor}
        minWidth={900}
      />
    </Stack>
  );
}
