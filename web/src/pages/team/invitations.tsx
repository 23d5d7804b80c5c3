/**
 * Inviting a person (POST /users/invitations {email, role}: an email with a link valid 72 hours,
 * opened at /app/accept-invitation) and the invitations still pending (GET /users/invitations),
 * each withdrawn after a confirmation (DELETE /users/invitations/{id}: its link then stops working).
 */
import { Alert, Button, Group, Modal, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { fieldErrors } from '../../api/field-errors.ts';
import type { components } from '../../api/schema.ts';
import { DataTable, ListState, type Column } from '../../components/data-table.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { READABLE } from '../../components/readable.ts';
import { useI18n } from '../../i18n/context.tsx';
import { formatDateTime } from '../../i18n/format.ts';
import { type Role, ROLES } from './roles.ts';
import { keys } from '../../api/query-keys.ts';

type Invitation = components['schemas']['Invitation'];

export function InviteForm({ mayManage }: { mayManage: boolean }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('VIEWER');
  const invite = useMutation({
    mutationFn: () => call(api.POST('/users/invitations', { body: { email, role } })),
    onSuccess: () => setEmail(''),
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: keys.invitations }), queryClient.invalidateQueries({ queryKey: keys.auditLog() })]),
  });
  const errors = fieldErrors(invite.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate();
  };
  return (
    <Stack component="section" aria-labelledby="invite-heading">
      <Title order={2} id="invite-heading">{t('team.invite')}</Title>
      <Paper withBorder p="md" maw={640}>
        <form onSubmit={submit}>
          <Stack>
            {invite.error && Object.keys(errors).length === 0 ? <ErrorAlert error={invite.error} /> : null}
            {invite.isSuccess ? <Alert color="green">{t('team.invited', { email: invite.data.email, expiresAt: formatDateTime(invite.data.expiresAt) })}</Alert> : null}
            <Group align="flex-start" grow>
              <TextInput label={t('team.email')} type="email" value={email} onChange={(event) => setEmail(event.currentTarget.value)} styles={READABLE} error={errors.email} required disabled={!mayManage} />
              <NativeSelect
                label={t('team.role')}
                value={role}
                onChange={(event) => setRole(event.currentTarget.value as Role)}
                data={ROLES.map((value) => ({ value, label: t(`team.role.${value}`) }))}
                styles={READABLE}
                error={errors.role}
                disabled={!mayManage}
              />
            </Group>
            <Group>
              <Button type="submit" loading={invite.isPending} disabled={!mayManage}>{t('team.sendInvitation')}</Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}

export function PendingInvitations() {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [withdrawing, setWithdrawing] = useState<Invitation | null>(null);
  const invitations = useQuery({ queryKey: keys.invitations, queryFn: () => call(api.GET('/users/invitations')) });
  const withdraw = useMutation({
    mutationFn: (id: string) => call(api.DELETE('/users/invitations/{id}', { params: { path: { id } } })),
    onSuccess: () => setWithdrawing(null),
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: keys.invitations }), queryClient.invalidateQueries({ queryKey: keys.auditLog() })]),
  });
  const columns: Column<Invitation>[] = [
    { id: 'email', header: t('team.email'), cell: (invitation) => invitation.email },
    { id: 'role', header: t('team.role'), cell: (invitation) => t(`team.role.${invitation.role}`) },
    { id: 'sentAt', header: t('team.sentAt'), cell: (invitation) => formatDateTime(invitation.createdAt) },
    { id: 'expiresAt', header: t('team.expiresAt'), cell: (invitation) => formatDateTime(invitation.expiresAt) },
    {
      id: 'actions',
      header: t('team.actions'),
      cell: (invitation) => (
        <Button size="xs" color="red" variant="light" onClick={() => setWithdrawing(invitation)} aria-label={t('team.withdrawWho', { email: invitation.email })}>
          {t('team.withdraw')}
        </Button>
      ),
    },
  ];
  return (
    <Stack component="section" aria-labelledby="invitations-heading">
      <Title order={2} id="invitations-heading">{t('team.pending')}</Title>
      <ListState query={invitations} isEmpty={(data) => data.length === 0} empty={t('team.noPending')}>
        {(data) => <DataTable caption={t('team.pendingCaption')} columns={columns} rows={data} rowKey={(invitation) => invitation.id} minWidth={560} />}
      </ListState>
      <Modal opened={withdrawing !== null} onClose={() => setWithdrawing(null)} title={t('team.withdrawTitle')}>
        <Stack>
          <Text>{t('team.withdrawConfirm', { email: withdrawing?.email ?? '' })}</Text>
          {withdraw.error ? <ErrorAlert error={withdraw.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setWithdrawing(null)}>{t('team.cancel')}</Button>
            <Button color="red" loading={withdraw.isPending} onClick={() => withdrawing && withdraw.mutate(withdrawing.id)}>{t('team.withdraw')}</Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
