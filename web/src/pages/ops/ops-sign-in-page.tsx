/**
 * The back office's sign-in (/app/ops/sign-in): POST /admin/auth/sessions, the password then the
 * code (components/sign-in-form.tsx). An operator without TOTP goes on to enrolment, others to the
 * back office. The `osid` cookie it sets is the operator's, apart from a merchant session's `sid`.
 */
import { useNavigate, useSearch } from '@tanstack/react-router';
import { operatorSignIn } from '../../api/operator-session.ts';
import { SignInForm } from '../../components/sign-in-form.tsx';
import { useI18n } from '../../i18n/context.tsx';

export function OpsSignInPage() {
  const { t } = useI18n();
  const navigate = useNavigate();
  const search = useSearch({ strict: false });
  return (
    <SignInForm
      title={t('ops.signIn.title')}
      signedOut={'signedOut' in search && search.signedOut === true}
      signIn={operatorSignIn}
      onSignedIn={(enrolmentRequired) => navigate({ to: enrolmentRequired ? '/ops/sign-in/totp' : '/ops' })}
    />
  );
}
