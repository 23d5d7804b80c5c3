/**
 * The team (/app/team): members with role and TOTP (members.tsx), invitations (invitations.tsx)
 * and the team's audit log (audit-log.tsx). Every person sees the members; changing them, the
 * invitations and the audit log need `users.manage` (OWNER, ADMIN). The buttons say so by being
 * disabled, the sections by being left out; the API is the guard (403 ROLE_NOT_ALLOWED).
 */
import { Stack, Text, Title } from '@mantine/core';
import { useMay } from '../../api/permissions.ts';
import { useI18n } from '../../i18n/context.tsx';
import { AuditLog } from './audit-log.tsx';
import { InviteForm, PendingInvitations } from './invitations.tsx';
import { Members } from './members.tsx';

export function TeamPage() {
  const { t } = useI18n();
  const mayManage = useMay('users.manage');
  return (
    <Stack gap="xl">
      <Title order={1}>{t('team.title')}</Title>
      {mayManage ? null : <Text>{t('team.readOnly')}</Text>}
      <Members mayManage={mayManage} />
      <InviteForm mayManage={mayManage} />
      {mayManage ? <PendingInvitations /> : null}
      {mayManage ? <AuditLog /> : null}
    </Stack>
  );
}
