/** /app/reset-password#<token>: a new password (POST /auth/password-resets/{token}); every session of the person ends. */
import { api, call } from '../../api/client.ts';
import { NewPasswordForm } from './new-password-form.tsx';

const send = (token: string, password: string) => call(api.POST('/auth/password-resets/{token}', { params: { path: { token } }, body: { password } }));

export function ResetPasswordPage() {
  return <NewPasswordForm title="links.resetTitle" intro="links.resetIntro" submit="links.resetSubmit" done="links.resetDone" send={send} />;
}
