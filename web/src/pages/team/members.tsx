/**
 * The members (GET /users): email, role, TOTP and since when. With `users.manage`, a role is
 * changed in place (PATCH /users/{id}; the API ends that person's sessions) and a member removed
 * after a confirmation (DELETE /users/{id}). Only an OWNER touches owners, and the last OWNER
 * stays: the API answers 403 / 409, shown above the table.
 */
import { Button, Group, Modal, NativeSelect, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { sessionQuery } from '../../api/session.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import { type Member, type Role, ROLES, usersQuery } from './roles.ts';
import { keys } from '../../api/query-keys.ts';

export function Members({ mayManage }: { mayManage: boolean }) {
  const { t, tn } = useI18n();
  const queryClient = useQueryClient();
  const session = useQuery(sessionQuery);
  const users = useQuery(usersQuery);
  const [removing, setRemoving] = useState<Member | null>(null);
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: keys.users }), queryClient.invalidateQueries({ queryKey: keys.auditLog() })]);

  const setRole = useMutation({
    mutationFn: ({ id, role }: { id: string; role: Role }) => call(api.PATCH('/users/{id}', { params: { path: { id } }, body: { role } })),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => call(api.DELETE('/users/{id}', { params: { path: { id } } })),
    onSuccess: () => setRemoving(null),
    onSettled: refresh,
  });
  const failure = setRole.error ?? remove.error;

  return (
    <Stack component="section" aria-labelledby="members-heading">
      <Title order={2} id="members-heading">{t('team.members')}</Title>
      {users.error ? <ErrorAlert error={users.error} /> : null}
      {failure && !removing ? <ErrorAlert error={failure} /> : null}
      {users.isPending ? <Loading /> : null}
      {users.data ? (
        <Table.ScrollContainer minWidth={640}>
          <Table striped>
            <caption>{tn('team.membersCaption', users.data.length)}</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('team.email')}</Table.Th>
                <Table.Th scope="col">{t('team.role')}</Table.Th>
                <Table.Th scope="col">{t('team.totp')}</Table.Th>
                <Table.Th scope="col">{t('team.memberSince')}</Table.Th>
                <Table.Th scope="col">{t('team.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.data.map((user) => {
                const self = user.id === session.data?.user.id;
                return (
                  <Table.Tr key={user.id}>
                    <Table.Td>{user.email}{self ? ` (${t('team.you')})` : ''}</Table.Td>
                    <Table.Td>
                      <NativeSelect
                        aria-label={t('team.roleOf', { email: user.email })}
                        value={user.role}
                        data={ROLES.map((role) => ({ value: role, label: t(`team.role.${role}`) }))}
                        disabled={!mayManage || self || setRole.isPending}
                        onChange={(event) => setRole.mutate({ id: user.id, role: event.currentTarget.value as Role })}
                        size="xs"
                      />
                    </Table.Td>
                    <Table.Td>
                      {user.totpEnabled ? t('team.totpOn') : t('team.totpOff')}
                    </Table.Td>
                    <Table.Td>{formatDateTime(user.createdAt)}</Table.Td>
                    <Table.Td>
                      <Button size="xs" color="red" variant="light" disabled={!mayManage || self} onClick={() => setRemoving(user)} aria-label={t('team.removeWho', { email: user.email })}>
                        {t('team.remove')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <Modal opened={removing !== null} onClose={() => setRemoving(null)} title={t('team.removeTitle')}>
        <Stack>
          <Text>{t('team.removeConfirm', { email: removing?.email ?? '' })}</Text>
          {remove.error ? <ErrorAlert error={remove.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRemoving(null)}>{t('team.cancel')}</Button>
            <Button color="red" loading={remove.isPending} onClick={() => removing && remove.mutate(removing.id)}>{t('team.remove')}</Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
