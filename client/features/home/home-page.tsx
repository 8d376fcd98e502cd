import { Link } from 'wouter'
import { useTranslation } from 'react-i18next'
import { useSnapshot } from 'valtio'
import type { Installation } from '../../../shared/schemas/installation.ts'
import { session } from '../../session/session.ts'
import { paths } from '../../app/paths.ts'
import { useFormats } from '../../components/use-formats.ts'
import { Loading, useDocumentTitle } from '../../components/ui.tsx'
import { dayPart } from './greeting.ts'
import { ShortcutList } from './shortcut-list.tsx'
import { clientDate } from '../../api/clock.ts'

/**
 * Home (SPEC §2): greeting with the first name and the last login, i.e. the login before this one
 * (`previous_login`), in the installation's time zone (SPEC §9).
 */
export default function HomePage({ installation }: { installation: Installation }) {
  const { t } = useTranslation('home')
  const { user } = useSnapshot(session)
  const f = useFormats(installation.timezone)
  useDocumentTitle(t('title'))

  if (!user) return <Loading label={t('common:loading')} />
  const part = dayPart(clientDate(), installation.timezone)

  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <section aria-labelledby="home-greeting" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 id="home-greeting" className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">
          {t(`greeting.${part}`, { name: user.first_name || user.full_name })}
        </h1>
        <p className="mt-2 text-slate-600">{t('facility', { name: installation.name })}</p>
        <p className="mt-4 text-sm text-slate-500">
          {user.previous_login ? t('lastLogin', { date: f.dateTime(user.previous_login) }) : t('firstLogin')}
        </p>
      </section>

      <ShortcutList installationId={installation.id} timezone={installation.timezone} />

      <section aria-labelledby="home-shortcuts">
        <h2 id="home-shortcuts" className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-500">
          {t('shortcuts')}
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2">
          <li>
            <Link
              href={paths.power(installation.id)}
              className="group block h-full rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-brand-500 hover:shadow focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
            >
              <span className="flex items-center gap-3">
                <span aria-hidden="true" className="grid h-10 w-10 place-items-center rounded-xl bg-amber-100 text-amber-700">
                  <svg viewBox="0 0 24 24" className="h-5 w-5" fill="currentColor">
                    <path d="M13 2 4 14h7l-1 8 9-12h-7l1-8z" />
                  </svg>
                </span>
                <span className="text-base font-semibold text-slate-900 group-hover:text-brand-700">{t('common:nav.power')}</span>
              </span>
              <span className="mt-2 block text-sm text-slate-600">{t('powerCard')}</span>
            </Link>
          </li>
        </ul>
      </section>
    </div>
  )
}
