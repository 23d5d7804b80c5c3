import type { AreaMessages } from './area.ts';

const ptBR = {
  'apiKeys.title': 'Chaves de API',
  'webhooks.title': 'Webhooks',
};

export const developers: AreaMessages<typeof ptBR> = {
  ptBR,
  en: {
    'apiKeys.title': 'API keys',
    'webhooks.title': 'Webhooks',
  },
};
