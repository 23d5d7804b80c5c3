/**
 * The person's live sessions (GET /users/me/sessions, newest first), this one marked; any other
 * can be ended (DELETE /users/me/sessions/{id}). This one is ended by the header's sign-out.
 */
import { Alert, Badge, Button, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import { keys } from '../../api/query-keys.ts';

export const SESSIONS_KEY = keys.mySessions;

export function SessionsSection() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: SESSIONS_KEY, queryFn: () => call(api.GET('/users/me/sessions')), staleTime: 0 });
  const revoke = useMutation({
    mutationFn: (id: string) => call(api.DELETE('/users/me/sessions/{id}', { params: { path: { id } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_KEY }),
  });

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
        {sessions.error ? <ErrorAlert error={sessions.error} /> : null}
        {sessions.isPending ? <Loading /> : null}
        {sessions.data ? (
          <>
            {sessions.data.length === 1 ? <Text size="sm">{t('account.sessions.onlyThis')}</Text> : null}
            <Table.ScrollContainer minWidth={720}>
              <Table striped>
                <Table.Caption c="gray.7">{t('account.sessions.caption')}</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('account.sessions.createdAt')}</Table.Th>
                    <Table.Th scope="col">{t('account.sessions.lastSeenAt')}</Table.Th>
                    <Table.Th scope="col">{t('account.sessions.expiresAt')}</Table.Th>
                    <Table.Th scope="col">{t('account.sessions.ip')}</Table.Th>
                    <Table.Th scope="col">{t('account.sessions.userAgent')}</Table.Th>
                    <Table.Th scope="col">{t('account.sessions.actions')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {sessions.data.map((session) => (
                    <Table.Tr key={session.id} data-testid="session-row" aria-current={session.current ? 'true' : undefined}>
                      <Table.Td>{formatDateTime(session.createdAt)}</Table.Td>
                      <Table.Td>{formatDateTime(session.lastSeenAt)}</Table.Td>
                      <Table.Td>{formatDateTime(session.expiresAt)}</Table.Td>
                      <Table.Td>{session.ip ?? t('common.none')}</Table.Td>
                      <Table.Td>
                        <Text size="sm" lineClamp={2} title={session.userAgent ?? undefined}>
                          {session.userAgent ?? t('common.none')}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        {session.current ? (
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
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </>
        ) : null}
      </Stack>
    </Paper>
  );
}
