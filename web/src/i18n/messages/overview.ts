import type { AreaMessages } from './area.ts';

const ptBR = {
  'overview.title': 'Visão geral',
};

export const overview: AreaMessages<typeof ptBR> = {
  ptBR,
  en: {
    'overview.title': 'Overview',
  },
};
