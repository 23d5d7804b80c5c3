/** pt-BR / English, remembered in localStorage (i18n/context.tsx). */
import { NativeSelect } from '@mantine/core';
import { useI18n } from '../i18n/context.tsx';
import { LANGUAGES, type Language } from '../i18n/messages.ts';

const NAMES: Record<Language, string> = { 'pt-BR': 'Português (Brasil)', en: 'English' };

export function LanguageSwitch() {
  const { language, setLanguage, t } = useI18n();
  return (
    <NativeSelect
      label={t('language.label')}
      size="xs"
      value={language}
      onChange={(event) => setLanguage(event.currentTarget.value as Language)}
      data={LANGUAGES.map((value) => ({ value, label: NAMES[value] }))}
    />
  );
}
