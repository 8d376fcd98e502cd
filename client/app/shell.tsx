import type { ReactNode } from 'react'
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react'
import { Link, useLocation } from 'wouter'
import { useTranslation } from 'react-i18next'
import { Brand } from '../components/brand.tsx'
import type { Installation } from '../../shared/schemas/installation.ts'
import { logout } from '../session/session.ts'
import { useSession } from '../session/use-session.ts'
import { useRights } from './use-rights.ts'
import { paths, switchFacilityPath } from './paths.ts'
import { LanguageSelect } from '../components/language-select.tsx'
import { cx } from '../components/ui.tsx'
import { LegalReminder } from './legal-reminder.tsx'
import { useAfterFirstPaint } from './first-paint.ts'
import { usePageFocus } from './page-focus.ts'

// Its own chunk: it brings the live store, which stays out of the Login route's bundle.
const OfflineBanner = lazy(() => import('./offline-banner.tsx'))

interface ShellProps {
  installationId: number
  installation: Installation | undefined
  children: ReactNode
}

/**
 * The logged-in frame (SPEC §2 sidebar): facility selector, menu, language, log out. Below the
 * md breakpoint the sidebar is a drawer behind a menu button (aria-expanded); while open it is modal:
 * Tab and Shift+Tab stay inside it and Escape closes it, focus back on the menu button.
 */
export function Shell({ installationId, installation, children }: ShellProps) {
  const { t } = useTranslation()
  const [location] = useLocation()
  const [open, setOpen] = useState(false)
  const menuButton = useRef<HTMLButtonElement>(null)
  const drawer = useRef<HTMLDivElement>(null)
  const userName = useSession((s) => s.user?.full_name ?? null)
  // Its read waits for the first paint, as the layout's (client/app/first-paint.ts).
  const painted = useAfterFirstPaint()
  const announced = usePageFocus(location, 'main')

  // Navigating closes the drawer.
  useEffect(() => setOpen(false), [location])

  useEffect(() => {
    if (!open) return
    drawer.current?.querySelector<HTMLElement>('a, button, select')?.focus()
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false)
        menuButton.current?.focus()
      } else if (e.key === 'Tab' && drawer.current) {
        // Focus trap: the overlay covers the page, so focus must not go behind it.
        const items = [...drawer.current.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), select:not([disabled]), input:not([disabled])')]
        if (!items.length) return
        const first = items[0]
        const last = items[items.length - 1]
        const inside = drawer.current.contains(document.activeElement)
        if (e.shiftKey && (document.activeElement === first || !inside)) {
          e.preventDefault()
          last.focus()
        } else if (!e.shiftKey && (document.activeElement === last || !inside)) {
          e.preventDefault()
          first.focus()
        }
      }
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [open])

  return (
    <div className="min-h-screen bg-slate-50 md:flex">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow"
      >
        {t('skipToContent')}
      </a>
      {open ? (
        <div aria-hidden="true" className="fixed inset-0 z-30 bg-slate-900/40 md:hidden" onClick={() => setOpen(false)} />
      ) : null}
      <div
        id="sidebar"
        ref={drawer}
        {...(open ? { role: 'dialog', 'aria-modal': true, 'aria-label': t('nav.menu') } : {})}
        className={cx(
          'z-40 w-72 shrink-0 flex-col border-r border-slate-200 bg-white md:sticky md:top-0 md:flex md:h-screen md:w-72',
          open ? 'fixed inset-y-0 left-0 flex shadow-xl' : 'hidden',
        )}
      >
        <Sidebar installationId={installationId} installation={installation} />
      </div>

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-20 flex items-center gap-3 border-b border-slate-200 bg-white/90 px-4 py-2.5 backdrop-blur md:px-6">
          <button
            ref={menuButton}
            type="button"
            className="-ml-1 inline-flex items-center gap-2 rounded-lg p-2 text-slate-700 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 md:hidden"
            aria-expanded={open}
            aria-controls="sidebar"
            onClick={() => setOpen((v) => !v)}
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="M4 6h16M4 12h16M4 18h16" strokeLinecap="round" />
            </svg>
            <span className="sr-only">{t('nav.menu')}</span>
          </button>
          <p className="min-w-0 flex-1 truncate text-sm font-medium text-slate-700">{installation?.name ?? ''}</p>
          {userName !== null ? <p className="hidden text-sm text-slate-500 lg:block">{userName}</p> : null}
          <LanguageSelect compact />
        </header>
        <p id="page-announcer" aria-live="polite" className="sr-only">
          {announced}
        </p>
        <main id="main" tabIndex={-1} className="flex-1 px-4 py-5 focus:outline-none md:px-6 md:py-6">
          {installation ? (
            <Suspense fallback={null}>
              <OfflineBanner installation={installation} />
            </Suspense>
          ) : null}
          {painted ? <LegalReminder installationId={installationId} /> : null}
          {children}
        </main>
      </div>
    </div>
  )
}

const linkClass = (active: boolean) =>
  cx(
    'flex items-center rounded-lg px-3 py-2 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500',
    active ? 'bg-brand-50 text-brand-700' : 'text-slate-700 hover:bg-slate-100',
  )

function NavLink({ href, children }: { href: string; children: ReactNode }) {
  const [location] = useLocation()
  const active = location === href
  return (
    <li>
      <Link href={href} className={linkClass(active)} aria-current={active ? 'page' : undefined}>
        {children}
      </Link>
    </li>
  )
}

function Sidebar({ installationId, installation }: { installationId: number; installation: Installation | undefined }) {
  const { t } = useTranslation()
  return (
    // One landmark for the whole sidebar: the logo, facility selector and log-out belong to it too
    // (axe "region": content outside landmarks is skipped by landmark navigation).
    <nav aria-label={t('nav.label')} className="flex h-full flex-col overflow-y-auto">
      <div className="flex items-center gap-2 px-5 pb-3 pt-5">
        <Brand />
      </div>
      <div className="px-4 pb-4">
        <FacilitySelect installationId={installationId} />
      </div>
      <div className="flex-1 px-3">
        <ul className="space-y-0.5">
          <NavLink href={paths.facility(installationId)}>{t('nav.mainMenu')}</NavLink>
          <NavLink href={paths.power(installationId)}>{t('nav.power')}</NavLink>
          <NavLink href={paths.charts(installationId)}>{t('nav.charts')}</NavLink>
          <NavLink href={paths.sessions(installationId)}>{t('nav.chargingSessions')}</NavLink>
          <NavLink href={paths.rfids(installationId)}>{t('nav.rfids')}</NavLink>
          <NavLink href={paths.pricing(installationId)}>{t('nav.pricing')}</NavLink>
          <NavLink href={paths.overview(installationId)}>{t('nav.overview')}</NavLink>
          <NavLink href={paths.installationView(installationId)}>{t('nav.installationView')}</NavLink>
          <NavLink href={`${paths.power(installationId)}#stations`}>{t('nav.chargingStations')}</NavLink>
          {installation ? <ManagementLinks installation={installation} /> : null}
          <NavLink href={paths.settings(installationId)}>{t('nav.settings')}</NavLink>
          <NavLink href={paths.support(installationId)}>{t('nav.support')}</NavLink>
        </ul>
      </div>
      <div className="border-t border-slate-200 p-3">
        <button
          type="button"
          onClick={logout}
          className="flex w-full items-center gap-2 rounded-lg px-3 py-2 text-left text-sm font-medium text-slate-700 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M15 4h3a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-3M10 17l5-5-5-5M15 12H3" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          {t('nav.logout')}
        </button>
      </div>
    </nav>
  )
}

/** Management entries, only those the user may open (the same rules as the routes' guards). */
function ManagementLinks({ installation }: { installation: Installation }) {
  const { t } = useTranslation()
  const { rights } = useRights(installation)
  if (!rights) return null
  return (
    <>
      {rights.mayOpen('users') ? <NavLink href={paths.users(installation.id)}>{t('nav.management')}</NavLink> : null}
      {rights.mayOpen('rates') ? <NavLink href={paths.rates(installation.id)}>{t('nav.rates')}</NavLink> : null}
      {rights.mayOpen('reports') ? <NavLink href={paths.reports(installation.id)}>{t('nav.reports')}</NavLink> : null}
      {rights.mayOpen('displays') ? <NavLink href={paths.displays(installation.id)}>{t('nav.displays')}</NavLink> : null}
      {rights.mayOpen('installationSettings') ? <NavLink href={paths.installationSettings(installation.id)}>{t('nav.installationSettings')}</NavLink> : null}
      {rights.mayOpen('objects') ? <NavLink href={paths.objects(installation.id)}>{t('nav.objects')}</NavLink> : null}
      {rights.mayOpen('meters') ? <NavLink href={paths.meters(installation.id)}>{t('nav.meters')}</NavLink> : null}
      {rights.mayOpen('stationSetup') ? <NavLink href={paths.stationSetup(installation.id)}>{t('nav.stationSetup')}</NavLink> : null}
      {rights.mayOpen('loadManagement') ? <NavLink href={paths.loadManagement(installation.id)}>{t('nav.loadManagement')}</NavLink> : null}
      {rights.mayOpen('legal') ? <NavLink href={paths.legal(installation.id)}>{t('nav.legal')}</NavLink> : null}
      {rights.access.role === 'superuser' ? <NavLink href={paths.installations}>{t('nav.installations')}</NavLink> : null}
    </>
  )
}

/** The facility selector (SPEC §2): switching keeps the sub-page and resets installation data (SPEC §4). */
function FacilitySelect({ installationId }: { installationId: number }) {
  const { t } = useTranslation()
  const id = useId()
  const [location, navigate] = useLocation()
  const installations = useSession((s) => s.installations)
  const list = installations ?? []
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-xs font-medium uppercase tracking-wide text-slate-500">
        {t('facility.label')}
      </label>
      <select
        id={id}
        value={String(installationId)}
        disabled={list.length === 0}
        onChange={(e) => navigate(switchFacilityPath(location, Number(e.target.value)))}
        className="w-full rounded-lg border border-slate-300 bg-white py-2 pl-3 pr-8 text-sm text-slate-800 shadow-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/40"
      >
        {list.length === 0 ? <option value={String(installationId)}>{t('loading')}</option> : null}
        {list.map((i) => (
          <option key={i.id} value={String(i.id)}>
            {i.name}
          </option>
        ))}
      </select>
    </div>
  )
}
