import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LANGUAGES, isLanguage } from '../i18n/index.ts'
import { chooseLanguage } from '../session/language.ts'
import { cx } from './ui.tsx'

/**
 * The UI language picker (en/de/fr/it; SPEC §9). Before sign-in it sets this browser's choice; signed in
 * it also saves the language on the account, the one Settings shows (client/session/language.ts). A
 * failed save says so beside the picker (the UI keeps the language in this browser).
 */
export function LanguageSelect({ className, compact = false }: { className?: string; compact?: boolean }) {
  const { t, i18n } = useTranslation()
  const id = useId()
  const errorId = useId()
  const [failed, setFailed] = useState(false)
  const value = i18n.resolvedLanguage ?? i18n.language
  return (
    <div className={cx('flex items-center gap-2', className)}>
      <label htmlFor={id} className={compact ? 'sr-only' : 'text-sm text-slate-600'}>
        {t('language.label')}
      </label>
      <select
        id={id}
        value={value}
        aria-invalid={failed || undefined}
        aria-describedby={failed ? errorId : undefined}
        onChange={(e) => {
          const lng = e.target.value
          if (!isLanguage(lng)) return
          setFailed(false)
          chooseLanguage(lng).catch(() => setFailed(true))
        }}
        className="rounded-lg border border-slate-300 bg-white py-1.5 pl-2 pr-8 text-sm text-slate-800 shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/40"
      >
        {LANGUAGES.map((lng) => (
          <option key={lng} value={lng} lang={lng}>
            {t(`language.${lng}`)}
          </option>
        ))}
      </select>
      {failed ? (
        <span id={errorId} role="alert" className="text-xs text-red-700">
          {t('language.notSaved')}
        </span>
      ) : null}
    </div>
  )
}
