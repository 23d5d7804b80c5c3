/**
 * The merchant dashboard's sign-in (components/sign-in-form.tsx: password, then the code when
 * asked). An OWNER or ADMIN without TOTP goes on to enrolment (totp-enrolment-page.tsx), anyone
 * else to the overview.
 */
import { useNavigate, useSearch } from '@tanstack/react-router';
import { signIn } from '../../api/session.ts';
import { SignInForm } from '../../components/sign-in-form.tsx';
import { useI18n } from '../../i18n/context.tsx';

export function SignInPage() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const search = useSearch({ strict: false });
  return (
    <SignInForm
      title={t('signIn.title')}
      signedOut={'signedOut' in search && search.signedOut === true}
      signIn={signIn}
      onSignedIn={(enrolmentRequired) => navigate({ to: enrolmentRequired ? '/sign-in/totp' : '/' })}
    />
  );
}
