/**
 * Counts with a noun and numbers in messages (web/src/i18n/translate.ts, issue 42): the plural form
 * comes from Intl.PluralRules for the language ("1 tentativa", never "1 tentativas"), an exact
 * zero form where a message has one, and every number placeholder written the language's way.
 * Also a scan of both dictionaries: no count is left with a "(s)" noun.
 */
import { describe, expect, it } from 'vitest';
import { LANGUAGES, MESSAGES } from '../../web/src/i18n/messages.ts';
import { fill, formatCount, translate, translatePlural } from '../../web/src/i18n/translate.ts';

describe('plural messages', () => {
  it('picks one or other by the language\'s rules', () => {
    expect(translatePlural('pt-BR', 'orders.timeline.attempts', 1)).toBe('1 tentativa');
    expect(translatePlural('pt-BR', 'orders.timeline.attempts', 2)).toBe('2 tentativas');
    expect(translatePlural('en', 'orders.timeline.attempts', 1)).toBe('1 attempt');
    expect(translatePlural('en', 'orders.timeline.attempts', 3)).toBe('3 attempts');
    expect(translatePlural('pt-BR', 'team.membersCaption', 1)).toBe('1 pessoa na equipe');
    expect(translatePlural('en', 'team.membersCaption', 1)).toBe('1 person on the team');
    expect(translatePlural('en', 'team.membersCaption', 4)).toBe('4 people on the team');
  });

  it('follows CLDR where the languages differ: 0 takes the singular in pt-BR, the plural in English', () => {
    expect(translatePlural('pt-BR', 'orders.timeline.attempts', 0)).toBe('0 tentativa');
    expect(translatePlural('en', 'orders.timeline.attempts', 0)).toBe('0 attempts');
  });

  it('uses a zero form for exactly 0 where the message has one', () => {
    expect(translatePlural('pt-BR', 'webhooks.recovered', 0)).toBe('Nenhuma entrega a colocar na fila de novo.');
    expect(translatePlural('en', 'webhooks.recovered', 0)).toBe('No delivery to queue again.');
    expect(translatePlural('pt-BR', 'webhooks.recovered', 1)).toBe('1 entrega colocada na fila de novo.');
    expect(translatePlural('en', 'webhooks.recovered', 2)).toBe('2 deliveries queued again.');
    expect(translatePlural('pt-BR', 'orders.total', 0)).toBe('Nenhum pedido');
    expect(translatePlural('en', 'orders.total', 0)).toBe('No orders');
  });

  it("falls back to other for pt-BR's many (round millions) and groups the count's digits", () => {
    expect(new Intl.PluralRules('pt-BR').select(1_000_000)).toBe('many');
    expect(translatePlural('pt-BR', 'orders.total', 1_000_000)).toBe('1.000.000 pedidos');
    expect(translatePlural('en', 'orders.total', 1_000_000)).toBe('1,000,000 orders');
    expect(translatePlural('pt-BR', 'deliveries.total', 1234)).toBe('1.234 entregas');
  });

  it('fills the other values next to the count', () => {
    expect(translatePlural('pt-BR', 'overview.unsettledValue', 1, { amount: 'R$ 10,00' })).toBe('R$ 10,00 em 1 lançamento');
    expect(translatePlural('en', 'opsOrders.stuck.applied', 2, { minutes: 30 })).toBe('Threshold applied: 30 min. 2 orders on this page.');
  });

  it('has, for every plural message, its one and other forms in both languages', () => {
    for (const language of LANGUAGES) {
      const keys = Object.keys(MESSAGES[language]);
      const bases = keys.filter((key) => /\.(one|other|zero)$/.test(key)).map((key) => key.replace(/\.(one|other|zero)$/, ''));
      expect(bases.length).toBeGreaterThan(10);
      for (const base of bases) {
        expect(keys, `${language}: ${base}`).toContain(`${base}.one`);
        expect(keys, `${language}: ${base}`).toContain(`${base}.other`);
      }
    }
  });

  it('leaves no count with a "(s)" noun in either language', () => {
    for (const language of LANGUAGES) {
      const leftovers = Object.entries(MESSAGES[language]).filter(([, text]) => /\((s|es|ões|ies)\)/.test(text));
      expect(leftovers, language).toEqual([]);
    }
  });
});

describe('numbers in messages', () => {
  it('writes numbers the language\'s way, strings verbatim', () => {
    expect(formatCount(1234.5, 'pt-BR')).toBe('1.234,5');
    expect(formatCount(1234.5, 'en')).toBe('1,234.5');
    expect(fill('{a} e {b}', 'pt-BR', { a: 1.5, b: '1.5' })).toBe('1,5 e 1.5');
    expect(fill('{a} {missing}', 'en', { a: 2 })).toBe('2 {missing}');
    expect(translate('pt-BR', 'common.pageOf', { page: 2, pages: 1200 })).toBe('Página 2 de 1.200');
    expect(translate('en', 'common.pageOf', { page: 2, pages: 1200 })).toBe('Page 2 of 1,200');
  });
});

describe('statuses in the timeline', () => {
  it('has a word for every movement and delivery status in both languages', () => {
    for (const language of LANGUAGES) {
      for (const status of ['PENDING', 'CONFIRMED', 'FAILED', 'HELD'] as const) expect(translate(language, `orders.transaction.status.${status}`)).not.toMatch(/^[A-Z_]+$/);
      for (const status of ['PENDING', 'SUCCEEDED', 'FAILED'] as const) expect(translate(language, `deliveries.status.${status}`)).not.toMatch(/^[A-Z_]+$/);
    }
    expect(translate('en', 'orders.transaction.status.PENDING')).toBe('Pending');
    expect(translate('pt-BR', 'orders.transaction.status.CONFIRMED')).toBe('Confirmada');
  });
});
