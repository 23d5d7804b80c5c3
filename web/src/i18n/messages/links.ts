import type { AreaMessages } from './area.ts';

const ptBR = {
  'links.newPassword': 'Nova senha',
  'links.repeatPassword': 'Repita a senha',
  'links.passwordRule': 'De {min} a {max} caracteres, quaisquer.',
  'links.mismatch': 'As duas senhas não são iguais.',
  'links.showPassword': 'Mostrar a senha',
  'links.invalid': 'Este link não vale mais (usado, cancelado ou vencido). Peça um novo.',
  'links.noToken': 'O link está incompleto. Abra-o de novo a partir do e-mail.',
  'links.goToSignIn': 'Ir para o login',
  'links.backToSignIn': 'Voltar para o login',
  'links.resetTitle': 'Nova senha',
  'links.resetIntro': 'Escolha uma nova senha. Todas as suas sessões serão encerradas.',
  'links.resetSubmit': 'Salvar a nova senha',
  'links.resetDone': 'Senha alterada. Entre com a nova senha.',
  'links.acceptTitle': 'Aceitar o convite',
  'links.acceptIntro': 'Escolha a senha da sua conta na equipe.',
  'links.acceptSubmit': 'Criar minha conta',
  'links.acceptDone': 'Conta criada. Agora entre com seu e-mail e a senha escolhida.',
};

export const links: AreaMessages<typeof ptBR> = {
  ptBR,
  en: {
    'links.newPassword': 'New password',
    'links.repeatPassword': 'Repeat the password',
    'links.passwordRule': '{min} to {max} characters, any.',
    'links.mismatch': 'The two passwords differ.',
    'links.showPassword': 'Show the password',
    'links.invalid': 'This link no longer works (used, withdrawn or expired). Ask for a new one.',
    'links.noToken': 'The link is incomplete. Open it again from the email.',
    'links.goToSignIn': 'Go to sign-in',
    'links.backToSignIn': 'Back to sign-in',
    'links.resetTitle': 'New password',
    'links.resetIntro': 'Choose a new password. All your sessions will end.',
    'links.resetSubmit': 'Save the new password',
    'links.resetDone': 'Password changed. Sign in with the new password.',
    'links.acceptTitle': 'Accept the invitation',
    'links.acceptIntro': 'Choose the password of your team account.',
    'links.acceptSubmit': 'Create my account',
    'links.acceptDone': 'Account created. Now sign in with your email and the password you chose.',
  },
};
