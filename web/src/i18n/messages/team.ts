import type { AreaMessages } from './area.ts';

const ptBR = {
  'team.title': 'Equipe',
};

export const team: AreaMessages<typeof ptBR> = {
  ptBR,
  en: {
    'team.title': 'Team',
  },
};
