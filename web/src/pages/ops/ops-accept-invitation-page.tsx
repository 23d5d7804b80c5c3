/**
 * /app/ops/accept-invitation#<token>: the invited operator chooses their password (POST
 * /admin/auth/invitations/{token} creates the operator with the invitation's email and role),
 * then signs in at /app/ops/sign-in and enrols TOTP. The link reached this person's email only:
 * whoever invited them never saw a credential (docs/decisions/0024-operators-made-by-two.md).
 */
import { api, call } from '../../api/client.ts';
import { NewPasswordForm } from '../links/new-password-form.tsx';

const send = (token: string, password: string) => call(api.POST('/admin/auth/invitations/{token}', { params: { path: { token } }, body: { password } }));

export function OpsAcceptInvitationPage() {
  return <NewPasswordForm title="links.opsAcceptTitle" intro="links.opsAcceptIntro" submit="links.acceptSubmit" done="links.acceptDone" send={send} signInPath="/ops/sign-in" />;
}
