/**
 * First-time TOTP enrolment of a merchant person (an OWNER or ADMIN must enrol before anything
 * else): POST /users/me/totp, then POST /users/me/totp/confirm (components/totp-enrolment-form.tsx).
 */
import { useNavigate } from '@tanstack/react-router';
import { confirmTotp, startTotpEnrolment } from '../../api/session.ts';
import { TotpEnrolmentForm } from '../../components/totp-enrolment-form.tsx';
import { useI18n } from '../../i18n/context.tsx';

export function TotpEnrolmentPage() {
  const { t } = useI18n();
  const navigate = useNavigate();
  return <TotpEnrolmentForm intro={t('totp.intro')} start={startTotpEnrolment} confirm={confirmTotp} onDone={() => navigate({ to: '/' })} />;
}
