/**
 * The person's live sessions (GET /users/me/sessions, newest first), this one marked; any other
 * can be ended (DELETE /users/me/sessions/{id}). This one is ended by the header's sign-out.
 */
import { Alert, Badge, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client.ts';
import { keys } from '../../api/query-keys.ts';
import type { components } from '../../api/schema.ts';
import { DataTable, ListState, type Column } from '../../components/data-table.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';

export const SESSIONS_KEY = keys.mySessions;
type Session = components['schemas']['SessionSummary'];

export function SessionsSection() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: SESSIONS_KEY, queryFn: () => call(api.GET('/users/me/sessions')), staleTime: 0 });
  const revoke = useMutation({
    mutationFn: (id: string) => call(api.DELETE('/users/me/sessions/{id}', { params: { path: { id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });
  const columns: Column<Session>[] = [
    { id: 'createdAt', header: t('account.sessions.createdAt'), cell: (session) => formatDateTime(session.createdAt) },
    { id: 'lastSeenAt', header: t('account.sessions.lastSeenAt'), cell: (session) => formatDateTime(session.lastSeenAt) },
    { id: 'expiresAt', header: t('account.sessions.expiresAt'), cell: (session) => formatDateTime(session.expiresAt) },
    { id: 'ip', header: t('account.sessions.ip'), cell: (session) => session.ip ?? t('common.none') },
    {
      id: 'userAgent',
      header: t('account.sessions.userAgent'),
      cell: (session) => (
        <Text size="sm" lineClamp={2} title={session.userAgent ?? undefined}>
          {session.userAgent ?? t('common.none')}
        </Text>
      ),
    },
    {
      id: 'actions',
      header: t('account.sessions.actions'),
      cell: (session) =>
        session.current ? (
          <Badge color="blue" variant="light">
            {t('account.sessions.current')}
          </Badge>
        ) : (
          <Button
            size="xs"
            variant="default"
            onClick={() => revoke.mutate(session.id)}
            loading={revoke.isPending && revoke.variables === session.id}
            aria-label={t('account.sessions.revokeLabel', { createdAt: formatDateTime(session.createdAt) })}
          >
            {t('account.sessions.revoke')}
          </Button>
        ),
    },
  ];

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="account-sessions">
      <Stack gap="sm">
        <Title order={2} id="account-sessions">
          {t('account.sessions.title')}
        </Title>
        {revoke.isSuccess ? (
          <Alert color="green" role="status">
            {t('account.sessions.revoked')}
          </Alert>
        ) : null}
        {revoke.error ? <ErrorAlert error={revoke.error} /> : null}
        <ListState query={sessions} isEmpty={(data) => data.length === 0} empty={t('common.none')}>
          {(data) => (
            <>
              {data.length === 1 ? <Text size="sm">{t('account.sessions.onlyThis')}</Text> : null}
              <DataTable
                caption={t('account.sessions.caption')}
                columns={columns}
                rows={data}
                rowKey={(session) => session.id}
                rowProps={(session) => ({ 'data-testid': 'session-row', 'aria-current': session.current ? 'true' : undefined })}
                minWidth={720}
              />
            </>
          )}
        </ListState>
      </Stack>
    </Paper>
  );
}
