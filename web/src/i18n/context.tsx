/**
 * The language of the dashboard: pt-BR unless the person chose English in the header; the choice
 * is kept in localStorage. Our own small typed dictionary (messages.ts) rather than an i18n
 * library: two languages and a few hundred strings need no plural engine or loader, and every key
 * is checked by the compiler (docs/architecture/dashboard.md#i18n).
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { LANGUAGES, MESSAGES, type Language, type MessageKey } from './messages.ts';

const STORAGE_KEY = 'dashboard.language';

type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

interface I18n {
  language: Language;
  setLanguage: (language: Language) => void;
  t: Translate;
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

  const t = useCallback<Translate>(
    (key, values) => MESSAGES[language][key].replace(/\{(\w+)\}/g, (whole, name: string) => (values && name in values ? String(values[name]) : whole)),
    [language],
  );

  const value = useMemo(() => ({ language, setLanguage, t }), [language, setLanguage, t]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error('useI18n outside I18nProvider');
  return i18n;
}
