import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { LANGUAGES, isLanguage, setLanguage } from '../i18n/index.ts'
import { cx } from './ui.tsx'

/** The UI language picker (en/de/fr/it, stored in localStorage; SPEC §9). */
export function LanguageSelect({ className, compact = false }: { className?: string; compact?: boolean }) {
  const { t, i18n } = useTranslation()
  const id = useId()
  const value = i18n.resolvedLanguage ?? i18n.language
  return (
    <div className={cx('flex items-center gap-2', className)}>
      <label htmlFor={id} className={compact ? 'sr-only' : 'text-sm text-slate-600'}>
        {t('language.label')}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => {
          const lng = e.target.value
          if (isLanguage(lng)) void setLanguage(lng)
        }}
        className="rounded-lg border border-slate-300 bg-white py-1.5 pl-2 pr-8 text-sm text-slate-800 shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/40"
      >
        {LANGUAGES.map((lng) => (
          <option key={lng} value={lng} lang={lng}>
            {t(`language.${lng}`)}
          </option>
        ))}
      </select>
    </div>
  )
}
