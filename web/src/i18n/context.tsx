/**
 * The language of the dashboard: pt-BR unless the person chose English in the header; the choice
 * is kept in localStorage. Our own small typed dictionary (messages.ts) rather than an i18n
 * library: two languages and a few hundred strings need no loader, plurals are the platform's
 * Intl.PluralRules (translate.ts), and every key is checked by the compiler
 * (docs/architecture/dashboard.md#i18n).
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { LANGUAGES, type Language, type MessageKey } from './messages.ts';
import { translate, translatePlural, type PluralKey, type Values } from './translate.ts';

const STORAGE_KEY = 'dashboard.language';

type Translate = (key: MessageKey, values?: Values) => string;
/** A count with its noun: `tn('orders.total', 3)` → "3 pedidos" (translate.ts). */
type TranslateCount = (key: PluralKey, count: number, values?: Values) => string;

interface I18n {
  language: Language;
  setLanguage: (language: Language) => void;
  t: Translate;
  tn: TranslateCount;
}

const I18nContext = createContext<I18n | null>(null);

function storedLanguage(): Language {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return LANGUAGES.find((language) => language === stored) ?? 'pt-BR';
  } catch {
    return 'pt-BR';
  }
}

export function I18nProvider({ children }: { children: ReactNode }) {
  const [language, setLanguageState] = useState<Language>(storedLanguage);

  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  const setLanguage = useCallback((next: Language) => {
    setLanguageState(next);
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Storage refused (private mode): the choice lasts until the page is closed.
    }
  }, []);

  const t = useCallback<Translate>((key, values) => translate(language, key, values), [language]);
  const tn = useCallback<TranslateCount>((key, count, values) => translatePlural(language, key, count, values), [language]);

  const value = useMemo(() => ({ language, setLanguage, t, tn }), [language, setLanguage, t, tn]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error('useI18n outside I18nProvider');
  return i18n;
}
