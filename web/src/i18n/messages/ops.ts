import type { AreaMessages } from './area.ts';

/** The back office's frame: its title, navigation, sign-in and enrolment (pages have their own files). */
const ptBR = {
  'ops.title': 'Retaguarda',
  'ops.nav.label': 'Navegação da retaguarda',
  'ops.nav.kyc': 'KYC',
  'ops.nav.orders': 'Pedidos',
  'ops.nav.stuck': 'Pedidos parados',
  'ops.nav.approvals': 'Aprovações',
  'ops.nav.disputes': 'Reclamações MED',
  'ops.nav.merchants': 'Lojistas',
  'ops.nav.treasury': 'Tesouraria',
  'ops.nav.webhooks': 'Webhooks',
  'ops.nav.audit': 'Registro de auditoria',
  'ops.nav.operators': 'Operadores',
  'ops.header.role': 'Perfil: {role}',
  'ops.signIn.title': 'Entrar na retaguarda',
  'ops.totp.intro': 'Todo operador precisa de um aplicativo autenticador. Adicione esta conta ao aplicativo e digite o código que ele mostrar.',
  'ops.notAllowed': 'Seu perfil não permite esta ação.',
};

export const ops: AreaMessages<typeof ptBR> = {
  ptBR,
  en: {
    'ops.title': 'Back office',
    'ops.nav.label': 'Back-office navigation',
    'ops.nav.kyc': 'KYC',
    'ops.nav.orders': 'Orders',
    'ops.nav.stuck': 'Stuck orders',
    'ops.nav.approvals': 'Approvals',
    'ops.nav.disputes': 'MED claims',
    'ops.nav.merchants': 'Merchants',
    'ops.nav.treasury': 'Treasury',
    'ops.nav.webhooks': 'Webhooks',
    'ops.nav.audit': 'Audit log',
    'ops.nav.operators': 'Operators',
    'ops.header.role': 'Role: {role}',
    'ops.signIn.title': 'Sign in to the back office',
    'ops.totp.intro': 'Every operator needs an authenticator app. Add this account to the app and enter the code it shows.',
    'ops.notAllowed': 'Your role does not allow this action.',
  },
};
