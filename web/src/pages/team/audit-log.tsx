/**
 * The team's audit log (GET /audit-log): who did what to whom, newest first, with the state
 * before and after (components/audit-log-table.tsx, shared with the back office's). Filtered by
 * action, actor (a member) and a São Paulo date range (the API's `to` is exclusive: the next
 * day's first instant includes the whole day). People are shown by email where they are members.
 */
import { Group, NativeSelect, Stack, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { keys } from '../../api/query-keys.ts';
import { AuditLogTable, type AuditEntry } from '../../components/audit-log-table.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { saoPauloDayEndExclusive, saoPauloDayStart } from '../../lib/sao-paulo-day.ts';
import { usersQuery } from './roles.ts';
// The server's one list of what a merchant's log holds (pure data): no hand copy to fall behind.
import { MERCHANT_AUDIT_ACTIONS } from '../../../../src/platform/audit/merchant-actions.ts';

const PAGE_SIZE = 20;

export function AuditLog() {
  const { t } = useI18n();
  const users = useQuery(usersQuery);
  const [action, setAction] = useState('');
  const [actor, setActor] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [cursor, setCursor] = useState<string>();
  const filters = { ...(action ? { action } : {}), ...(actor ? { actor } : {}), ...(from ? { from: saoPauloDayStart(from) } : {}), ...(to ? { to: saoPauloDayEndExclusive(to) } : {}) };
  const log = useQuery({
    queryKey: keys.auditLog({ ...filters, cursor }),
    queryFn: () => call(api.GET('/audit-log', { params: { query: { limit: PAGE_SIZE, ...filters, ...(cursor ? { cursor } : {}) } } })),
  });
  const filter = (set: (value: string) => void) => (value: string) => {
    set(value);
    setCursor(undefined);
  };
  const emailOf = new Map((users.data ?? []).map((user) => [user.id, user.email]));
  const who = (actorId: string) => (actorId.startsWith('user:') ? (emailOf.get(actorId.slice(5)) ?? actorId) : actorId);
  const target = (entry: AuditEntry) => {
    if (entry.targetType === 'user' && entry.targetId) return emailOf.get(entry.targetId) ?? entry.targetId;
    const after = entry.details.after as { email?: unknown } | undefined;
    return `${entry.targetType} ${typeof after?.email === 'string' ? after.email : (entry.targetId ?? '')}`.trim();
  };

  return (
    <Stack component="section" aria-labelledby="audit-heading">
      <Title order={2} id="audit-heading">{t('team.audit.title')}</Title>
      <Group align="flex-end" role="search" aria-label={t('team.audit.filters')}>
        <NativeSelect label={t('team.audit.action')} value={action} onChange={(event) => filter(setAction)(event.currentTarget.value)} data={[{ value: '', label: t('team.audit.all') }, ...MERCHANT_AUDIT_ACTIONS.map((value) => ({ value, label: value }))]} />
        <NativeSelect
          label={t('team.audit.actor')}
          value={actor}
          onChange={(event) => filter(setActor)(event.currentTarget.value)}
          data={[{ value: '', label: t('team.audit.all') }, ...(users.data ?? []).map((user) => ({ value: `user:${user.id}`, label: user.email }))]}
        />
        <TextInput label={t('team.audit.from')} type="date" value={from} onChange={(event) => filter(setFrom)(event.currentTarget.value)} />
        <TextInput label={t('team.audit.to')} type="date" value={to} onChange={(event) => filter(setTo)(event.currentTarget.value)} />
      </Group>
      <AuditLogTable log={log} texts="team.audit" actorName={who} targetName={target} cursor={cursor} onCursor={setCursor} minWidth={760} />
    </Stack>
  );
}
