import type { ReactNode } from 'react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'

/** Join class names, skipping falsy ones. */
export function cx(...names: Array<string | false | null | undefined>): string {
  return names.filter(Boolean).join(' ')
}

export type Tone = 'green' | 'blue' | 'red' | 'gray' | 'amber'

const TONES: Record<Tone, string> = {
  green: 'bg-emerald-50 text-emerald-800 ring-emerald-600/30',
  blue: 'bg-sky-50 text-sky-800 ring-sky-600/30',
  red: 'bg-red-50 text-red-800 ring-red-600/30',
  gray: 'bg-slate-100 text-slate-700 ring-slate-500/30',
  amber: 'bg-amber-50 text-amber-900 ring-amber-600/40',
}
const DOTS: Record<Tone, string> = {
  green: 'bg-emerald-500',
  blue: 'bg-sky-500',
  red: 'bg-red-500',
  gray: 'bg-slate-400',
  amber: 'bg-amber-500',
}

/** A small status pill: colour plus text (never colour alone). */
export function Badge({ tone, children, className }: { tone: Tone; children: ReactNode; className?: string }) {
  return (
    <span
      className={cx(
        'inline-flex items-center gap-1.5 whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset',
        TONES[tone],
        className,
      )}
    >
      <span aria-hidden="true" className={cx('h-1.5 w-1.5 rounded-full', DOTS[tone])} />
      {children}
    </span>
  )
}

/** A framed block of the page with a heading (a labelled region). */
export function Card({
  title,
  titleId,
  aside,
  children,
  className,
}: {
  title: ReactNode
  titleId: string
  aside?: ReactNode
  children: ReactNode
  className?: string
}) {
  return (
    <section aria-labelledby={titleId} className={cx('rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5', className)}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <h2 id={titleId} className="text-base font-semibold text-slate-900">
          {title}
        </h2>
        {aside ? <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500">{aside}</div> : null}
      </div>
      {children}
    </section>
  )
}

/** A centered spinner with a visible label, announced politely. */
export function Loading({ label, className }: { label: string; className?: string }) {
  return (
    <div role="status" className={cx('flex items-center justify-center gap-3 py-10 text-sm text-slate-500', className)}>
      <span aria-hidden="true" className="h-5 w-5 animate-spin motion-reduce:animate-none rounded-full border-2 border-slate-300 border-t-brand-600" />
      <span>{label}</span>
    </div>
  )
}

/** Full-page fallback while a route chunk or a language loads. */
export function PageLoading() {
  const { t } = useTranslation()
  return <Loading label={t('loading')} className="min-h-[50vh]" />
}

/** A notice box: `alert` for problems that need attention, `status` for information. */
export function Notice({
  tone,
  role = 'status',
  title,
  children,
  className,
}: {
  tone: 'info' | 'warning' | 'error'
  role?: 'alert' | 'status' | 'note'
  title?: ReactNode
  children?: ReactNode
  className?: string
}) {
  const tones = {
    info: 'border-sky-200 bg-sky-50 text-sky-900',
    warning: 'border-amber-300 bg-amber-50 text-amber-950',
    error: 'border-red-200 bg-red-50 text-red-900',
  }
  return (
    <div role={role} className={cx('rounded-xl border px-4 py-3 text-sm', tones[tone], className)}>
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div className={title ? 'mt-1' : undefined}>{children}</div> : null}
    </div>
  )
}

/**
 * The outcome of a page's last action: a confirmation (status) and a problem (alert, announced at
 * once), each only when there is one.
 */
export function Outcome({ message, problem }: { message?: ReactNode; problem?: ReactNode }) {
  return (
    <>
      {message ? <Notice tone="info">{message}</Notice> : null}
      {problem ? (
        <Notice tone="error" role="alert">
          {problem}
        </Notice>
      ) : null}
    </>
  )
}

/** Set the document title as "<page> · Cockpit". */
export function useDocumentTitle(title: string): void {
  const { t } = useTranslation()
  const app = t('appName')
  useEffect(() => {
    document.title = title ? `${title} · ${app}` : app
  }, [title, app])
}

/**
 * A box that scrolls sideways when its table is wider than a phone: keyboard users reach
 * the hidden columns by focusing it (axe scrollable-region-focusable), labelled by its card's heading.
 */
export function ScrollArea({ labelledBy, children, className }: { labelledBy: string; children: ReactNode; className?: string }) {
  return (
    <div
      // A group, not a region: its card already is the region of that name.
      role="group"
      aria-labelledby={labelledBy}
      tabIndex={0}
      className={cx('overflow-x-auto rounded focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500', className)}
    >
      {children}
    </div>
  )
}
