import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { Installation } from '../../../shared/schemas/installation.ts'
import type { PendingInvitation } from '../../../shared/schemas/accounts.ts'
import { Badge, Card, Loading, Notice } from '../../components/ui.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { useAction } from '../../components/use-action.ts'
import { useFormats } from '../../components/use-formats.ts'
import { fetchInvitations, resendInvitation, revokeInvitation, userKeys } from './api.ts'

/**
 * Management → Users: the installation's invitations of existing accounts not accepted yet (docs/decisions.md
 * "Accounts: pending invitations"): the address typed, the role, when sent and until when the link works, each
 * with "Send again" (a new link; the previous one stops working) and "Withdraw" (confirmed first). Shown only
 * when there are any.
 */
export function InvitationsCard({ installation }: { installation: Installation }) {
  const { t } = useTranslation('users')
  const { t: tc } = useTranslation()
  const f = useFormats(installation.timezone)
  const titleId = useId()
  const queryClient = useQueryClient()
  const query = useQuery({ queryKey: userKeys.invitations(installation.id), queryFn: ({ signal }) => fetchInvitations(installation.id, signal) })
  const rows = query.data ?? null
  const [withdrawing, setWithdrawing] = useState<PendingInvitation | null>(null)
  const { busy, feedback, run } = useAction()

  async function act(work: () => Promise<unknown>, done: string) {
    await run(async () => {
      await work()
      await queryClient.invalidateQueries({ queryKey: userKeys.invitations(installation.id) })
      return done
    })
    setWithdrawing(null)
  }

  if (rows !== null && rows.length === 0 && !feedback) return null
  return (
    <Card title={t('invitations.title')} titleId={titleId}>
      {rows === null ? (
        query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={tc('loading')} />
      ) : (
        <ul className="divide-y divide-slate-100">
          {rows.map((i) => (
            <li key={i.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
              <div className="min-w-0">
                <p className="truncate font-medium text-slate-900">{i.email}</p>
                <p className="text-sm text-slate-600">
                  {t('invitations.sent', { date: f.dateTime(i.sent_at) })} · {i.expired ? t('invitations.expired', { date: f.dateTime(i.expires_at) }) : t('invitations.expires', { date: f.dateTime(i.expires_at) })}
                </p>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <Badge tone={i.role === 'installation_user' ? 'gray' : 'blue'}>{t(`roles.${i.role}`)}</Badge>
                <button type="button" className="btn-secondary" disabled={busy} aria-label={t('invitations.resendOne', { email: i.email })}
                  onClick={() => void act(() => resendInvitation(installation.id, i.id), t('invitations.resent', { email: i.email }))}>
                  {t('invitations.resend')}
                </button>
                <button type="button" className="btn-secondary" disabled={busy} aria-label={t('invitations.withdrawOne', { email: i.email })} onClick={() => setWithdrawing(i)}>
                  {t('invitations.withdraw')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {feedback ? <Notice tone={feedback.tone} role={feedback.tone === 'error' ? 'alert' : 'status'} className="mt-3">{feedback.text}</Notice> : null}
      <ConfirmDialog open={withdrawing !== null} title={t('invitations.withdrawTitle')} confirmLabel={t('invitations.withdraw')} cancelLabel={t('cancel')} busy={busy}
        onConfirm={() => withdrawing && void act(() => revokeInvitation(installation.id, withdrawing.id), t('invitations.withdrawn', { email: withdrawing.email }))}
        onCancel={() => setWithdrawing(null)}>
        {withdrawing ? t('invitations.withdrawText', { email: withdrawing.email }) : null}
      </ConfirmDialog>
    </Card>
  )
}
