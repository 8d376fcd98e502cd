import { useTranslation } from 'react-i18next'

/** The Cockpit mark and name, as shown in the sidebar and on the logged-out pages. */
export function Brand() {
  const { t } = useTranslation()
  return (
    <>
      <span aria-hidden="true" className="grid h-8 w-8 place-items-center rounded-lg bg-brand-600 text-white">
        <svg viewBox="0 0 24 24" className="h-5 w-5" fill="currentColor">
          <path d="M13 2 4 14h7l-1 8 9-12h-7l1-8z" />
        </svg>
      </span>
      <span className="text-lg font-semibold tracking-tight text-slate-900">{t('common:appName')}</span>
    </>
  )
}
