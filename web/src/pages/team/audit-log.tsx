/**
 * The team's audit log (GET /audit-log): who did what to whom, newest first, with the state
 * before and after. Cursor-paged ("more" follows `nextCursor`) and filtered by action, actor
 * (a member) and a São Paulo date range. People are shown by email where they are members.
 */
import { Button, Code, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import type { components } from '../../api/schema.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import { usersQuery } from './roles.ts';

type Entry = components['schemas']['AuditEntry'];

const ACTIONS = ['user.invite', 'user.withdraw_invitation', 'user.accept_invitation', 'user.create', 'user.set_role', 'user.remove', 'user.password_reset', 'credential.issue', 'credential.revoke'];
const PAGE_SIZE = 20;
// São Paulo has kept UTC-3 all year since 2019: a calendar day there is [00:00-03:00, next 00:00-03:00).
const dayStart = (day: string) => `${day}T00:00:00-03:00`;
const dayEnd = (day: string) => `${day}T23:59:59.999-03:00`;

/** `before` and `after` as short JSON, or nothing when the entry has no state. */
function Change({ details }: { details: Entry['details'] }) {
  const { t } = useI18n();
  const parts = (['before', 'after'] as const).filter((key) => details[key] !== undefined);
  if (parts.length === 0) return <>{t('common.none')}</>;
  return (
    <Stack gap={2}>
      {parts.map((key) => (
        <Text size="xs" key={key}>
          {t(`team.audit.${key}`)}: <Code style={{ wordBreak: 'break-all' }}>{JSON.stringify(details[key])}</Code>
        </Text>
      ))}
    </Stack>
  );
}

export function AuditLog() {
  const { t } = useI18n();
  const users = useQuery(usersQuery);
  const [action, setAction] = useState('');
  const [actor, setActor] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const filters = { ...(action ? { action } : {}), ...(actor ? { actor } : {}), ...(from ? { from: dayStart(from) } : {}), ...(to ? { to: dayEnd(to) } : {}) };
  const log = useInfiniteQuery({
    queryKey: ['audit-log', filters],
    queryFn: ({ pageParam }) => call(api.GET('/audit-log', { params: { query: { limit: PAGE_SIZE, ...filters, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const emailOf = new Map((users.data ?? []).map((user) => [user.id, user.email]));
  const who = (actorId: string) => (actorId.startsWith('user:') ? (emailOf.get(actorId.slice(5)) ?? actorId) : actorId);
  const target = (entry: Entry) => {
    if (entry.targetType === 'user' && entry.targetId) return emailOf.get(entry.targetId) ?? entry.targetId;
    const after = entry.details.after as { email?: unknown } | undefined;
    return `${entry.targetType} ${typeof after?.email === 'string' ? after.email : (entry.targetId ?? '')}`.trim();
  };
  const entries = log.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <Stack component="section" aria-labelledby="audit-heading">
      <Title order={2} id="audit-heading">{t('team.audit.title')}</Title>
      <Group align="flex-end" role="search" aria-label={t('team.audit.filters')}>
        <NativeSelect label={t('team.audit.action')} value={action} onChange={(event) => setAction(event.currentTarget.value)} data={[{ value: '', label: t('team.audit.all') }, ...ACTIONS.map((value) => ({ value, label: value }))]} />
        <NativeSelect
          label={t('team.audit.actor')}
          value={actor}
          onChange={(event) => setActor(event.currentTarget.value)}
          data={[{ value: '', label: t('team.audit.all') }, ...(users.data ?? []).map((user) => ({ value: `user:${user.id}`, label: user.email }))]}
        />
        <TextInput label={t('team.audit.from')} type="date" value={from} onChange={(event) => setFrom(event.currentTarget.value)} />
        <TextInput label={t('team.audit.to')} type="date" value={to} onChange={(event) => setTo(event.currentTarget.value)} />
      </Group>
      {log.error ? <ErrorAlert error={log.error} /> : null}
      {log.isPending ? <Loading /> : null}
      {log.data && entries.length === 0 ? <Text>{t('team.audit.empty')}</Text> : null}
      {entries.length > 0 ? (
        <Table.ScrollContainer minWidth={760}>
          <Table striped>
            <caption>{t('team.audit.caption')}</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('team.audit.time')}</Table.Th>
                <Table.Th scope="col">{t('team.audit.actor')}</Table.Th>
                <Table.Th scope="col">{t('team.audit.action')}</Table.Th>
                <Table.Th scope="col">{t('team.audit.target')}</Table.Th>
                <Table.Th scope="col">{t('team.audit.change')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td>{formatDateTime(entry.createdAt)}</Table.Td>
                  <Table.Td>{who(entry.actor)}</Table.Td>
                  <Table.Td><Code>{entry.action}</Code></Table.Td>
                  <Table.Td>{target(entry)}</Table.Td>
                  <Table.Td><Change details={entry.details} /></Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {log.hasNextPage ? (
        <Button variant="default" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage} w="fit-content">
          {t('team.audit.more')}
        </Button>
      ) : null}
    </Stack>
  );
}
