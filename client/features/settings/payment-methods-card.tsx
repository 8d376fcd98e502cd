import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import { paths } from '../../app/paths.ts'
import { Card, Notice } from '../../components/ui.tsx'
import { fetchPaymentMethods, meKeys } from './api.ts'

/**
 * The payment methods section of Settings (SPEC §2): a short text, the notices for a failed charge and
 * a card about to expire (SPEC §5, §8), and the way to the methods page.
 */
export function PaymentMethodsCard({ installationId, userId }: { installationId: number; userId: number }) {
  const { t } = useTranslation('settings')
  const titleId = useId()
  // The notices are a hint only; the methods page (same query) reports errors.
  const methods = useQuery({ queryKey: meKeys.paymentMethods(userId), queryFn: ({ signal }) => fetchPaymentMethods(userId, signal) }).data ?? []
  return (
    <Card title={t('payments.title')} titleId={titleId}>
      <p className="text-sm text-slate-600">{t('payments.section')}</p>
      {methods.some((m) => m.favourite && m.charge_failed) ? (
        <Notice tone="error" role="alert" className="mt-3">
          {t('payments.chargeFailed')}
        </Notice>
      ) : null}
      {methods.some((m) => m.about_to_expire) ? (
        <Notice tone="warning" role="alert" className="mt-3">
          {t('payments.aboutToExpire')}
        </Notice>
      ) : null}
      <Link href={paths.paymentMethods(installationId)} className="btn-secondary mt-4 inline-block">
        {t('payments.manage')}
      </Link>
    </Card>
  )
}
