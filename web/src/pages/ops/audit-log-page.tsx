/**
 * The platform's audit log (/app/ops/audit-log, GET /admin/audit-log): newest first, filtered by
 * actor, action, target type and id, merchant and a São Paulo date range; keyset paging ("load
 * more" follows `nextCursor`). Each entry: time, actor (an operator by email), action, target and
 * what changed (audit-change.tsx). "Export CSV" is a plain link to GET /admin/audit-log/export with
 * the same filters: the browser downloads it with the operator's cookie (Path=/api/v1/admin); shown
 * only to an operator with `reports.export` (the API refuses the others and records every export).
 */
import { Anchor, Button, Code, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { API_BASE, api, call } from '../../api/client.ts';
import { OPS_KEY } from '../../api/query-client.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useOperatorMay } from '../../api/operator-session.ts';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import { AuditChange } from './audit-change.tsx';
import { dayEndExclusive, dayStart, present } from './ops-format.ts';
import { useActorName } from './operators-query.ts';

type Field = 'actor' | 'action' | 'targetType' | 'targetId' | 'merchantId' | 'from' | 'to';
type Form = Record<Field, string>;
const EMPTY: Form = { actor: '', action: '', targetType: '', targetId: '', merchantId: '', from: '', to: '' };

/** The form's values as the API's query: trimmed, empty ones left out, days as instants. */
function toQuery(form: Form) {
  const { from, to, ...rest } = form;
  return present({
    ...Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, value.trim()])),
    from: from ? dayStart(from) : undefined,
    to: to ? dayEndExclusive(to) : undefined,
  }) as Partial<Record<Field, string>>;
}

export function AuditLogPage() {
  const { t } = useI18n();
  const actorName = useActorName();
  const [form, setForm] = useState<Form>(EMPTY);
  const [filters, setFilters] = useState<ReturnType<typeof toQuery>>({});
  const log = useInfiniteQuery({
    queryKey: [OPS_KEY, 'audit-log', filters],
    queryFn: ({ pageParam }) => call(api.GET('/admin/audit-log', { params: { query: { limit: 50, ...filters, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const entries = log.data?.pages.flatMap((page) => page.data) ?? [];
  const mayExport = useOperatorMay('reports.export');
  const exportHref = `${API_BASE}/admin/audit-log/export?${new URLSearchParams(filters as Record<string, string>).toString()}`;
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(toQuery(form));
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
      {mayExport ? (
        <Anchor href={exportHref} download w="fit-content">
          {t('opsAudit.export')}
        </Anchor>
      ) : null}
      {log.error ? <ErrorAlert error={log.error} /> : null}
      {log.isPending ? <Loading /> : null}
      {log.data && entries.length === 0 ? <Text>{t('opsAudit.empty')}</Text> : null}
      {entries.length > 0 ? (
        <Table.ScrollContainer minWidth={900}>
          <Table striped>
            <caption>{t('opsAudit.caption')}</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('opsAudit.time')}</Table.Th>
                <Table.Th scope="col">{t('opsAudit.actor')}</Table.Th>
                <Table.Th scope="col">{t('opsAudit.action')}</Table.Th>
                <Table.Th scope="col">{t('opsAudit.target')}</Table.Th>
                <Table.Th scope="col">{t('opsAudit.change')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td>{formatDateTime(entry.createdAt)}</Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{actorName(entry.actor)}</Table.Td>
                  <Table.Td>
                    <Code>{entry.action}</Code>
                  </Table.Td>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{`${entry.targetType} ${entry.targetId ?? ''}`.trim()}</Table.Td>
                  <Table.Td>
                    <AuditChange details={entry.details} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {log.hasNextPage ? (
        <Button variant="default" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage} w="fit-content">
          {t('opsAudit.more')}
        </Button>
      ) : null}
    </Stack>
  );
}
