/**
 * /app/accept-invitation#<token>: the invited person chooses a password (POST
 * /auth/invitations/{token} creates the user with the invitation's email and role), then signs in
 * (an OWNER or ADMIN enrols TOTP there first).
 */
import { api, call } from '../../api/client.ts';
import { NewPasswordForm } from './new-password-form.tsx';

const send = (token: string, password: string) => call(api.POST('/auth/invitations/{token}', { params: { path: { token } }, body: { password } }));

export function AcceptInvitationPage() {
  return <NewPasswordForm title="links.acceptTitle" intro="links.acceptIntro" submit="links.acceptSubmit" done="links.acceptDone" send={send} />;
}
