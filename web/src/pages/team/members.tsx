/**
 * The members (GET /users): email, role, TOTP and since when. With `users.manage`, a role is
 * changed in place (PATCH /users/{id}; the API ends that person's sessions) and a member removed
 * after a confirmation (DELETE /users/{id}). Only an OWNER touches owners, and the last OWNER
 * stays: the API answers 403 / 409, shown above the table.
 */
import { Button, Group, Modal, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.ts';
import { sessionQuery } from '../../api/session.ts';
import { DataTable, ListState, type Column } from '../../components/data-table.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
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
  const isSelf = (user: Member) => user.id === session.data?.user.id;
  const columns: Column<Member>[] = [
    { id: 'email', header: t('team.email'), cell: (user) => `${user.email}${isSelf(user) ? ` (${t('team.you')})` : ''}` },
    {
      id: 'role',
      header: t('team.role'),
      cell: (user) => (
        <NativeSelect
          aria-label={t('team.roleOf', { email: user.email })}
          value={user.role}
          data={ROLES.map((role) => ({ value: role, label: t(`team.role.${role}`) }))}
          disabled={!mayManage || isSelf(user) || setRole.isPending}
          onChange={(event) => setRole.mutate({ id: user.id, role: event.currentTarget.value as Role })}
          size="xs"
        />
      ),
    },
    { id: 'totp', header: t('team.totp'), cell: (user) => (user.totpEnabled ? t('team.totpOn') : t('team.totpOff')) },
    { id: 'memberSince', header: t('team.memberSince'), cell: (user) => formatDateTime(user.createdAt) },
    {
      id: 'actions',
      header: t('team.actions'),
      cell: (user) => (
        <Button size="xs" color="red" variant="light" disabled={!mayManage || isSelf(user)} onClick={() => setRemoving(user)} aria-label={t('team.removeWho', { email: user.email })}>
          {t('team.remove')}
        </Button>
      ),
    },
  ];

  return (
    <Stack component="section" aria-labelledby="members-heading">
      <Title order={2} id="members-heading">{t('team.members')}</Title>
      {failure && !removing ? <ErrorAlert error={failure} /> : null}
      <ListState query={users} isEmpty={(data) => data.length === 0} empty={t('common.none')}>
        {(data) => <DataTable caption={tn('team.membersCaption', data.length)} columns={columns} rows={data} rowKey={(user) => user.id} />}
      </ListState>
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
