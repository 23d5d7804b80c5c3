import type { AreaMessages } from './area.ts';

const ptBR = {
  'fees.title': 'Tarifas e liquidações',
};

export const fees: AreaMessages<typeof ptBR> = {
  ptBR,
  en: {
    'fees.title': 'Fees & settlements',
  },
};
