/**
 * The signed-in person's own account (/app/account): who they are, their password, their open
 * sessions and their two-step verification. Everything here is a documented API route under
 * /users/me (or /auth/sessions/current), so an API client with a session can do the same.
 */
import { Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { sessionQuery } from '../../api/session.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Loading } from '../../components/loading.tsx';
import { useI18n } from '../../i18n/context.tsx';
import { PasswordSection } from './password-section.tsx';
import { SessionsSection } from './sessions-section.tsx';
import { TotpSection } from './totp-section.tsx';
import { WhoAmISection } from './who-am-i-section.tsx';

export function AccountPage() {
  const { t } = useI18n();
  const session = useQuery(sessionQuery);

  return (
    <Stack gap="xl">
      <Title order={1}>{t('account.title')}</Title>
      {session.error ? <ErrorAlert error={session.error} /> : null}
      {session.isPending ? <Loading /> : null}
      {session.data ? (
        <>
          <WhoAmISection user={session.data.user} />
          <PasswordSection />
          <SessionsSection />
          <TotpSection user={session.data.user} />
        </>
      ) : null}
    </Stack>
  );
}
