import { useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { fetchSetupStatus } from '../setup/api.ts'
import type { DemoAccount, DemoSignIn } from '../../../shared/schemas/setup.ts'

/**
 * The demo's accounts under the login form (DEMO=on; GET /api/setup `demo`), so a first start explains
 * itself (README "Start"): each account with its role and installation, a button that fills the form
 * with it, and the shared password while it is the documented default. Nothing without the demo, or
 * while the answer is out (the form works without it).
 */
export function DemoAccounts({ onPick }: { onPick: (email: string, password: string | null) => void }) {
  const { t } = useTranslation('login')
  const [demo, setDemo] = useState<DemoSignIn | null>(null)
  const headingId = useId()
  useEffect(() => {
    const ctl = new AbortController()
    fetchSetupStatus(ctl.signal).then((s) => setDemo(s.demo), () => setDemo(null))
    return () => ctl.abort()
  }, [])
  if (!demo || demo.accounts.length === 0) return null
  const what = (a: DemoAccount) => `${t(`demo.role.${a.role}`)}, ${a.installation ?? t('demo.everyInstallation')}`
  return (
    <section aria-labelledby={headingId} className="mt-6 rounded-lg border border-brand-100 bg-brand-50 px-4 py-3 text-sm text-slate-700">
      <h2 id={headingId} className="font-semibold text-slate-900">{t('demo.title')}</h2>
      <p className="mt-1">{t('demo.intro')}</p>
      <ul className="mt-2 space-y-1">
        {demo.accounts.map((a) => (
          <li key={a.email}>
            <button
              type="button"
              className="w-full rounded-md px-2 py-2 text-left hover:bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
              onClick={() => onPick(a.email, demo.password)}
            >
              <span className="block font-medium text-brand-700">{a.email}</span>
              <span className="block text-slate-600">{what(a)}</span>
            </button>
          </li>
        ))}
      </ul>
      <p className="mt-2">{demo.password ? t('demo.password', { password: demo.password }) : t('demo.passwordSet')}</p>
    </section>
  )
}
