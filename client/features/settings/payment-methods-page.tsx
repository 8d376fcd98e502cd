import { useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from 'wouter'
import { useSnapshot } from 'valtio'
import type { Installation } from '../../../shared/schemas/installation.ts'
import { session } from '../../session/session.ts'
import { errorMessage } from '../../api/errors.ts'
import { paths } from '../../app/paths.ts'
import { Badge, Card, Loading, Notice, useDocumentTitle } from '../../components/ui.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import type { PaymentInfo } from '../../../shared/schemas/payment.ts'
import { useFormats } from '../../components/use-formats.ts'
import { QueryProblem } from '../../components/query-problem.tsx'
import { downloadInvoice } from '../sessions/api.ts'
import { fetchAppFees, fetchPaymentMethods, meKeys, removePaymentMethod, setPrimaryPaymentMethod, startCheckout } from './api.ts'

type Feedback = { tone: 'info' | 'warning' | 'error'; text: string } | null

/** The message for the flag the payment provider returned with (SPEC §2 success, error, cancel). */
function returnFlag(search: string): 'added' | 'failed' | 'cancelled' | null {
  const q = new URLSearchParams(search)
  if (q.has('success')) return 'added'
  if (q.has('error')) return 'failed'
  if (q.has('cancel')) return 'cancelled'
  return null
}

/**
 * Payment methods (SPEC §2, route /facility/{id}/settings/payment-method): the caller's cards and Twint
 * (masked number, expiry, primary badge), add through the provider's checkout, set as primary, remove
 * with confirmation; the notices for a card about to expire (SPEC §5) and a failed charge (SPEC §8), and
 * the result of a checkout from the success, error or cancel flag; and the monthly app fees charged to
 * them (SPEC §9) with their invoices.
 */
export default function PaymentMethodsPage({ installation }: { installation: Installation }) {
  const { t } = useTranslation('settings')
  const { t: tc } = useTranslation()
  // The session knows who is signed in from the token, before the user's details are loaded.
  const { userId } = useSnapshot(session)
  const titleId = useId()
  const queryClient = useQueryClient()
  const methodsQuery = useQuery({
    queryKey: meKeys.paymentMethods(userId ?? 0),
    queryFn: ({ signal }) => fetchPaymentMethods(userId!, signal),
    enabled: userId !== null,
  })
  const feesQuery = useQuery({ queryKey: meKeys.appFees(userId ?? 0), queryFn: ({ signal }) => fetchAppFees(userId!, signal), enabled: userId !== null })
  const methods = methodsQuery.data ?? null
  const fees = feesQuery.data ?? null
  const feesTitleId = useId()
  const f = useFormats(installation.timezone)
  const [busy, setBusy] = useState(false)
  const [removing, setRemoving] = useState<PaymentInfo | null>(null)
  const [feedback, setFeedback] = useState<Feedback>(() => {
    const flag = returnFlag(window.location.search)
    return flag ? { tone: flag === 'added' ? 'info' : flag === 'failed' ? 'error' : 'warning', text: t(`payments.${flag}`) } : null
  })
  useDocumentTitle(t('payments.title'))

  useEffect(() => {
    // The flag is shown once; a reload must not repeat it.
    if (returnFlag(window.location.search)) window.history.replaceState(window.history.state, '', window.location.pathname)
  }, [])

  /** Runs an action; `changes` when it changes the methods (the settings card shows their notices too). */
  async function run(action: () => Promise<unknown>, done?: string, changes = false) {
    setBusy(true)
    try {
      await action()
      if (changes && userId !== null) await queryClient.invalidateQueries({ queryKey: meKeys.paymentMethods(userId) })
      setFeedback(done ? { tone: 'info', text: done } : null)
    } catch (err) {
      setFeedback({ tone: 'error', text: errorMessage(err, tc) })
    } finally {
      setBusy(false)
    }
  }

  async function add() {
    setBusy(true)
    try {
      const here = paths.paymentMethods(installation.id)
      const r = await startCheckout({ success_url: `${here}?success=1`, error_url: `${here}?error=1`, cancel_url: `${here}?cancel=1` })
      window.location.assign(r.redirect_url)
    } catch (err) {
      setFeedback({ tone: 'error', text: errorMessage(err, tc) })
      setBusy(false)
    }
  }

  const name = (m: PaymentInfo) => (m.kind === 'twint' ? t('payments.twint') : `${m.brand} ${m.masked}`)
  const expiring = (methods ?? []).some((m) => m.about_to_expire)

  return (
    <div className="mx-auto max-w-3xl space-y-5">
      <p className="text-sm">
        <Link href={paths.settings(installation.id)} className="text-brand-700 underline">
          {t('payments.back')}
        </Link>
      </p>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('payments.title')}</h1>
      {feedback ? (
        <Notice tone={feedback.tone} role={feedback.tone === 'info' ? 'status' : 'alert'}>
          {feedback.text}
        </Notice>
      ) : null}
      {expiring ? (
        <Notice tone="warning" role="alert">
          {t('payments.aboutToExpire')}
        </Notice>
      ) : null}
      <Card title={t('payments.listTitle')} titleId={titleId}>
        {methods === null ? (
          methodsQuery.isError && !methodsQuery.isFetching ? <QueryProblem error={methodsQuery.error} onRetry={methodsQuery.refetch} /> : <Loading label={tc('loading')} />
        ) : methods.length === 0 ? (
          <p className="text-sm text-slate-600">{t('payments.empty')}</p>
        ) : (
          <ul className="divide-y divide-slate-100" aria-labelledby={titleId}>
            {methods.map((m) => (
              <li key={m.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-900">
                    <span>{name(m)}</span>
                    {m.favourite ? <Badge tone="green">{t('payments.primary')}</Badge> : null}
                    {m.about_to_expire ? <Badge tone="amber">{t('payments.expiring')}</Badge> : null}
                  </p>
                  {m.exp_month && m.exp_year ? (
                    <p className="text-sm text-slate-600">{t('payments.expires', { date: `${String(m.exp_month).padStart(2, '0')}/${m.exp_year}` })}</p>
                  ) : null}
                  {m.charge_failed ? (
                    <p role="alert" className="mt-1 text-sm font-medium text-red-700">
                      {t('payments.chargeFailed')}
                    </p>
                  ) : null}
                </div>
                <div className="flex flex-wrap gap-2">
                  {!m.favourite ? (
                    <button type="button" className="btn-secondary" disabled={busy || !userId} aria-label={t('payments.setPrimaryNamed', { name: name(m) })}
                      onClick={() => void run(() => setPrimaryPaymentMethod(userId!, m.id), t('payments.primarySet'), true)}>
                      {t('payments.setPrimary')}
                    </button>
                  ) : null}
                  <button type="button" className="btn-secondary border-red-300 text-red-700" disabled={busy} aria-label={t('payments.removeNamed', { name: name(m) })}
                    onClick={() => setRemoving(m)}>
                    {t('payments.remove')}
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
        <button type="button" className="btn-primary mt-4" disabled={busy} onClick={() => void add()}>
          {t('payments.add')}
        </button>
        <p className="mt-4 text-xs text-slate-500">{t('payments.fees')}</p>
      </Card>
      <Card title={t('payments.appFees')} titleId={feesTitleId}>
        <p className="text-sm text-slate-600">{t('payments.appFeesText')}</p>
        {fees === null ? (
          feesQuery.isError && !feesQuery.isFetching ? <div className="mt-3"><QueryProblem error={feesQuery.error} onRetry={feesQuery.refetch} /></div> : null
        ) : fees.length === 0 ? (
          <p className="mt-3 text-sm text-slate-600">{t('payments.appFeesEmpty')}</p>
        ) : (
          <ul className="mt-3 divide-y divide-slate-100" aria-labelledby={feesTitleId}>
            {fees.map((fee) => (
              <li key={fee.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="min-w-0 text-sm">
                  <p className="font-medium text-slate-900">{t('payments.appFeeMonth', { month: fee.month, installation: fee.installation_name })}</p>
                  <p className="text-slate-600">
                    {t('payments.appFeeAmount', { amount: f.money(fee.amount), fee: f.money(fee.transaction_fee), total: f.money(fee.total) })}
                  </p>
                  <p className="text-slate-600">{fee.status === 'paid' && fee.paid_on ? t('payments.appFeePaid', { date: f.date(fee.paid_on) }) : t('payments.appFeeUnpaid')}</p>
                </div>
                <button type="button" className="btn-secondary" disabled={busy} aria-label={t('payments.appFeeInvoiceNamed', { month: fee.month })}
                  onClick={() => void run(() => downloadInvoice(fee.invoice_url, `${t('payments.appFeeInvoiceFile')}-${fee.month}.pdf`))}>
                  {t('payments.appFeeInvoice')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <ConfirmDialog open={removing !== null} title={t('payments.removeTitle')} confirmLabel={t('payments.remove')} cancelLabel={t('cancel')} busy={busy}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          const m = removing!
          setRemoving(null)
          void run(() => removePaymentMethod(userId!, m.id), t('payments.removed'), true)
        }}>
        {removing ? t('payments.removeText', { name: name(removing) }) : null}
      </ConfirmDialog>
    </div>
  )
}
