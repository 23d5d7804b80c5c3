/**
 * Every text of the dashboard, in Brazilian Portuguese (the default) and English, one file per
 * page area under messages/ (so pages grow apart without touching one shared list). pt-BR is the
 * reference: `MessageKey` is its set of keys, and each area's English must name the same keys.
 * `{name}` placeholders are filled by t() (i18n/context.tsx). Keys carry their area's prefix
 * (`receivers.`); a new area is a new file here and one line in each spread below.
 */
import { core } from './messages/core.ts';
import { signIn } from './messages/sign-in.ts';
import { receivers } from './messages/receivers.ts';
import { overview } from './messages/overview.ts';
import { orders } from './messages/orders.ts';
import { developers } from './messages/developers.ts';
import { fees } from './messages/fees.ts';
import { balances } from './messages/balances.ts';
import { team } from './messages/team.ts';
import { account } from './messages/account.ts';
import { links } from './messages/links.ts';
import { ops } from './messages/ops.ts';
import { opsKyc } from './messages/ops-kyc.ts';
import { opsMerchants } from './messages/ops-merchants.ts';
import { opsAdmin } from './messages/ops-admin.ts';
import { opsOrders } from './messages/ops-orders.ts';
import { opsApprovals } from './messages/ops-approvals.ts';
import { opsDisputes } from './messages/ops-disputes.ts';
import { policies } from './messages/policies.ts';
import { disputes } from './messages/disputes.ts';
import { batches } from './messages/batches.ts';
import { settlementKey } from './messages/settlement-key.ts';

const ptBR = {
  ...core.ptBR,
  ...signIn.ptBR,
  ...receivers.ptBR,
  ...overview.ptBR,
  ...orders.ptBR,
  ...developers.ptBR,
  ...fees.ptBR,
  ...team.ptBR,
  ...account.ptBR,
  ...links.ptBR,
  ...ops.ptBR,
  ...opsKyc.ptBR,
  ...opsMerchants.ptBR,
  ...opsAdmin.ptBR,
  ...opsOrders.ptBR,
  ...opsApprovals.ptBR,
  ...opsDisputes.ptBR,
  ...policies.ptBR,
  ...disputes.ptBR,
  ...balances.ptBR,
  ...batches.ptBR,
  ...settlementKey.ptBR,
};

export type MessageKey = keyof typeof ptBR;
export type Messages = Record<MessageKey, string>;

const en: Messages = {
  ...core.en,
  ...signIn.en,
  ...receivers.en,
  ...overview.en,
  ...orders.en,
  ...developers.en,
  ...fees.en,
  ...team.en,
  ...account.en,
  ...links.en,
  ...ops.en,
  ...opsKyc.en,
  ...opsMerchants.en,
  ...opsAdmin.en,
  ...opsOrders.en,
  ...opsApprovals.en,
  ...opsDisputes.en,
  ...policies.en,
  ...disputes.en,
  ...balances.en,
  ...batches.en,
  ...settlementKey.en,
};

export const LANGUAGES = ['pt-BR', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const MESSAGES: Record<Language, Messages> = { 'pt-BR': ptBR, en };
