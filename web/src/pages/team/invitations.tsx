/**
 * Inviting a person (POST /users/invitations {email, role}: an email with a link valid 72 hours,
 * opened at /app/accept-invitation) and the invitations still pending (GET /users/invitations),
 * each withdrawn after a confirmation (DELETE /users/invitations/{id}: its link then stops working).
 */
import { Alert, Button, Group, Modal, NativeSelect, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call } from '../../api/client.ts';
import { fieldErrors } from '../../api/field-errors.ts';
import type { components } from '../../api/schema.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
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
  return (
    <Stack component="section" aria-labelledby="invitations-heading">
      <Title order={2} id="invitations-heading">{t('team.pending')}</Title>
      {invitations.error ? <ErrorAlert error={invitations.error} /> : null}
      {invitations.isPending ? <Loading /> : null}
      {invitations.data && invitations.data.length === 0 ? <Text>{t('team.noPending')}</Text> : null}
      {invitations.data && invitations.data.length > 0 ? (
        <Table.ScrollContainer minWidth={560}>
          <Table striped>
            <caption>{t('team.pendingCaption')}</caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('team.email')}</Table.Th>
                <Table.Th scope="col">{t('team.role')}</Table.Th>
                <Table.Th scope="col">{t('team.sentAt')}</Table.Th>
                <Table.Th scope="col">{t('team.expiresAt')}</Table.Th>
                <Table.Th scope="col">{t('team.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invitations.data.map((invitation) => (
                <Table.Tr key={invitation.id}>
                  <Table.Td>{invitation.email}</Table.Td>
                  <Table.Td>{t(`team.role.${invitation.role}`)}</Table.Td>
                  <Table.Td>{formatDateTime(invitation.createdAt)}</Table.Td>
                  <Table.Td>{formatDateTime(invitation.expiresAt)}</Table.Td>
                  <Table.Td>
                    <Button size="xs" color="red" variant="light" onClick={() => setWithdrawing(invitation)} aria-label={t('team.withdrawWho', { email: invitation.email })}>
                      {t('team.withdraw')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
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
