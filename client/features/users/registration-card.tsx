import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Installation } from '../../../shared/schemas/installation.ts'
import { errorMessage } from '../../api/errors.ts'
import { Card, Notice } from '../../components/ui.tsx'
import { setRegistration } from './api.ts'

/** Management → Users: switch self-registration for the installation, admins only. */
export function RegistrationCard({ installation }: { installation: Installation }) {
  const { t } = useTranslation('users')
  const { t: tc } = useTranslation()
  const titleId = useId()
  const helpId = useId()
  const [enabled, setEnabled] = useState(installation.registration_enabled)
  const [busy, setBusy] = useState(false)
  const [message, setMessage] = useState<{ tone: 'info' | 'error'; text: string } | null>(null)

  // Optimistic: the box follows the click at once and goes back if the save fails.
  async function toggle(next: boolean) {
    setEnabled(next)
    setBusy(true)
    setMessage(null)
    try {
      const saved = await setRegistration(installation.id, next)
      setEnabled(saved.registration_enabled)
      setMessage({ tone: 'info', text: t('registration.saved') })
    } catch (err) {
      setEnabled(!next)
      setMessage({ tone: 'error', text: errorMessage(err, tc) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card title={t('registration.title')} titleId={titleId}>
      <label className="flex items-start gap-3 text-sm text-slate-800">
        <input
          type="checkbox"
          className="mt-0.5 h-4 w-4 rounded border-slate-300 text-brand-600 focus-visible:ring-2 focus-visible:ring-brand-500"
          checked={enabled}
          disabled={busy}
          aria-describedby={helpId}
          onChange={(e) => void toggle(e.target.checked)}
        />
        <span>{t('registration.label')}</span>
      </label>
      <p id={helpId} className="mt-2 text-sm text-slate-600">{t('registration.help')}</p>
      {message ? <Notice tone={message.tone} role={message.tone === 'error' ? 'alert' : 'status'}>{message.text}</Notice> : null}
    </Card>
  )
}
