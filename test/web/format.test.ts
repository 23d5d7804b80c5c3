/**
 * The dashboard's formatters (web/src/i18n/format.ts): BRL per language, token amounts regrouped
 * exactly from their decimal strings (a float would lose digits), times in São Paulo written the
 * Brazilian way whatever the machine's zone.
 */
import { describe, expect, it } from 'vitest';
import { formatBrl, formatDate, formatDateTime, formatFeeFraction, formatTokenAmount } from '../../web/src/i18n/format.ts';

const nbsp = (text: string) => text.replace(/\s/g, ' ');

describe('dashboard formatters', () => {
  it('BRL in pt-BR and English', () => {
    expect(nbsp(formatBrl(1234.5, 'pt-BR'))).toBe('R$ 1.234,50');
    expect(formatBrl(1234.5, 'en')).toBe('R$1,234.50');
    expect(nbsp(formatBrl('0.10', 'pt-BR'))).toBe('R$ 0,10');
  });

  it('fee percentages arrive as fractions and show in per cent, every digit kept', () => {
    expect(formatFeeFraction(0.005, 'pt-BR')).toBe('0,5%');
    expect(formatFeeFraction(0.0125, 'en')).toBe('1.25%');
    expect(formatFeeFraction(0.015, 'en')).toBe('1.5%');
    expect(formatFeeFraction(0.00000001, 'en')).toBe('0.000001%');
    expect(formatFeeFraction(0, 'pt-BR')).toBe('0%');
  });

  it('token amounts keep every digit of their decimal string', () => {
    expect(formatTokenAmount('12345678901234567.123456789', 'USDC', 'pt-BR')).toBe('12.345.678.901.234.567,123456789 USDC');
    expect(formatTokenAmount('12345678901234567.123456789', 'USDC', 'en')).toBe('12,345,678,901,234,567.123456789 USDC');
    expect(formatTokenAmount('-0.000001', 'SOL', 'pt-BR')).toBe('-0,000001 SOL');
    expect(formatTokenAmount('not a number', 'SOL', 'en')).toBe('not a number SOL');
  });

  it('times in America/Sao_Paulo, dd/mm/yyyy 24 h', () => {
    expect(formatDateTime('2026-11-26T02:40:00.000Z')).toBe('25/11/2026 23:40');
    expect(formatDateTime('2026-01-05T15:07:00.000Z')).toBe('05/01/2026 12:07');
    expect(formatDate('2026-11-26T02:40:00.000Z')).toBe('25/11/2026');
  });
});
