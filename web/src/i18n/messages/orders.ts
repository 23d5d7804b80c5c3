import type { AreaMessages } from './area.ts';

const ptBR = {
  'orders.title': 'Pedidos',
};

export const orders: AreaMessages<typeof ptBR> = {
  ptBR,
  en: {
    'orders.title': 'Orders',
  },
};
