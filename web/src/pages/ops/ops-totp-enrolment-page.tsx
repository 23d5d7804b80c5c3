/**
 * An operator's TOTP enrolment (/app/ops/sign-in/totp), required before anything else:
 * POST /admin/operators/me/totp, then /confirm (components/totp-enrolment-form.tsx).
 */
import { useNavigate } from '@tanstack/react-router';
import { confirmOperatorTotp, startOperatorTotpEnrolment } from '../../api/operator-session.ts';
import { TotpEnrolmentForm } from '../../components/totp-enrolment-form.tsx';
import { useI18n } from '../../i18n/context.tsx';

export function OpsTotpEnrolmentPage() {
  const { t } = useI18n();
  const navigate = useNavigate();
  return <TotpEnrolmentForm intro={t('ops.totp.intro')} start={startOperatorTotpEnrolment} confirm={confirmOperatorTotp} onDone={() => navigate({ to: '/ops' })} />;
}
