/**
 * t() and tn() without React (context.tsx binds them to the chosen language; test/web calls them
 * directly). `{name}` placeholders are filled from `values`; a number is written the language's
 * way (1.234,5 in pt-BR, 1,234.5 in English), so no count or amount leaks the JavaScript form.
 *
 * Counts with a noun ("1 tentativa", "2 tentativas") are plural messages: one key per CLDR
 * category the language uses, `<key>.one` and `<key>.other` (pt-BR's `many`, only for round
 * millions, falls back to `other`), chosen by Intl.PluralRules; an optional `<key>.zero` is used
 * for exactly 0 where a sentence reads better than the number ("Nenhum pedido"), as ICU's `=0`.
 * `{count}` is the count, formatted like any number.
 */
import { MESSAGES, type Language, type MessageKey } from './messages.ts';

export type Values = Record<string, string | number>;

/** The keys that have plural forms: `orders.total` for `orders.total.one` / `.other`. */
export type PluralKey = MessageKey extends infer K ? (K extends `${infer Base}.other` ? Base : never) : never;

const numberFormats = new Map<Language, Intl.NumberFormat>();
const pluralRules = new Map<Language, Intl.PluralRules>();

function numberFormat(language: Language): Intl.NumberFormat {
  let format = numberFormats.get(language);
  if (!format) numberFormats.set(language, (format = new Intl.NumberFormat(language, { maximumFractionDigits: 6 })));
  return format;
}

function rules(language: Language): Intl.PluralRules {
  let found = pluralRules.get(language);
  if (!found) pluralRules.set(language, (found = new Intl.PluralRules(language)));
  return found;
}

/** A number in the language's digits and separators ("1.234" in pt-BR, "1,234" in English). */
export function formatCount(value: number, language: Language): string {
  return numberFormat(language).format(value);
}

/** Fills `{name}` from values (numbers in the language's form); an unknown name stays as written. */
export function fill(template: string, language: Language, values?: Values): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    if (!values || !(name in values)) return whole;
    const value = values[name]!;
    return typeof value === 'number' ? formatCount(value, language) : value;
  });
}

export function translate(language: Language, key: MessageKey, values?: Values): string {
  return fill(MESSAGES[language][key], language, values);
}

/** The plural form of `key` for `count` in `language`, with `{count}` and the other values filled. */
export function translatePlural(language: Language, key: PluralKey, count: number, values?: Values): string {
  const forms = MESSAGES[language] as Record<string, string>;
  const zero = count === 0 ? forms[`${key}.zero`] : undefined;
  const template = zero ?? forms[`${key}.${rules(language).select(count)}`] ?? forms[`${key}.other`]!;
  return fill(template, language, { ...values, count });
}

// Every plural message has its `one` form next to its `other` (English and pt-BR both use it): a
// compile error here names the key that lacks it.
true satisfies (`${PluralKey}.one` extends MessageKey ? true : never);
