import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { OcppBinding } from '../../../shared/schemas/ocpp.ts'
import { errorMessage } from '../../api/errors.ts'
import type { Formats } from '../../components/use-formats.ts'
import { Loading, Notice } from '../../components/ui.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { bindOcpp, ocppCommand, stationKeys, stationOcpp, unbindOcpp } from './station-api.ts'

/**
 * The station's OCPP charge point, in the Management tab for admins: what its
 * BootNotification said, connection, last message and message counts; a form to bind the station to a
 * charge point id (the generated password is shown once), and unbinding.
 */
export function StationOcpp({ installationId, stationId, f }: { installationId: number; stationId: number; f: Formats }) {
  const { t } = useTranslation('charging')
  const { t: tc } = useTranslation()
  const ids = { cp: useId(), connector: useId(), tag: useId() }
  const [tag, setTag] = useState('')
  const [sent, setSent] = useState<{ text: string; ok: boolean } | null>(null)
  const queryClient = useQueryClient()
  const key = stationKeys.ocpp(installationId, stationId)
  const query = useQuery({ queryKey: key, queryFn: ({ signal }) => stationOcpp(installationId, stationId, signal) })
  const binding = query.data
  // Bind and unbind answer with the new state: no need to read it again.
  const setBinding = (next: OcppBinding | null) => queryClient.setQueryData(key, next)
  const [cpId, setCpId] = useState('')
  const [connector, setConnector] = useState(1)
  const [password, setPassword] = useState<string | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function bind() {
    setBusy(true)
    setMessage(null)
    try {
      const r = await bindOcpp(installationId, stationId, { charge_point_id: cpId.trim(), connector_id: connector })
      // The password is shown once and kept out of the query cache.
      const { password: once, ...bound } = r
      setPassword(once)
      setBinding(bound)
    } catch (err) {
      setMessage(errorMessage(err, tc))
    } finally {
      setBusy(false)
    }
  }
  async function send(action: 'RemoteStartTransaction' | 'RemoteStopTransaction' | 'UnlockConnector') {
    setBusy(true)
    setMessage(null)
    setSent(null)
    try {
      const r = await ocppCommand(installationId, stationId, action === 'RemoteStartTransaction' ? { action, id_tag: tag.trim() } : { action })
      // The connected charger's answer is shown here; an offline one's goes to the journal.
      if (r.status === 'queued' || r.status === 'sent') setSent({ text: t('ocpp.sent'), ok: true })
      else if (r.status === 'Accepted' || r.status === 'Unlocked') setSent({ text: t('ocpp.accepted'), ok: true })
      else if (r.status === 'failed') setSent({ text: t('ocpp.failed', { error: r.error ?? '' }), ok: false })
      else setSent({ text: t('ocpp.refused', { status: r.status }), ok: false })
    } catch (err) {
      setMessage(errorMessage(err, tc))
    } finally {
      setBusy(false)
    }
  }
  async function unbind() {
    setBusy(true)
    setMessage(null)
    try {
      await unbindOcpp(installationId, stationId)
      setBinding(null)
      setPassword(null)
    } catch (err) {
      setMessage(errorMessage(err, tc))
    } finally {
      setBusy(false)
    }
  }

  return (
    <section aria-labelledby={`${ids.cp}-h`} className="mt-8 space-y-3 border-t border-slate-200 pt-6">
      <h2 id={`${ids.cp}-h`} className="text-lg font-semibold text-slate-900">
        {t('ocpp.title')}
      </h2>
      {message ? (
        <Notice tone="error" role="alert">
          {message}
        </Notice>
      ) : null}
      {binding === undefined ? (
        query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={tc('loading')} />
      ) : binding ? (
        <>
          {password ? (
            <Notice tone="info" role="status">
              {t('ocpp.passwordOnce')} <span className="font-mono">{password}</span>
            </Notice>
          ) : null}
          <dl className="grid gap-3 text-sm sm:grid-cols-2">
            {(
              [
                ['chargePointId', binding.charge_point_id],
                ['connector', String(binding.connector_id)],
                ['connection', binding.connected ? t('ocpp.connected') : t('ocpp.disconnected')],
                ['device', [binding.vendor, binding.model].filter(Boolean).join(' ') || '—'],
                ['firmware', binding.firmware ?? '—'],
                ['lastStatus', binding.last_status ?? '—'],
                ['lastMessage', binding.last_message_at ? f.dateTime(binding.last_message_at) : t('ocpp.never')],
                ['messages', t('ocpp.counts', { in: binding.messages_in, out: binding.messages_out })],
              ] as const
            ).map(([key, value]) => (
              <div key={key}>
                <dt className="font-medium text-slate-700">{t(`ocpp.${key}`)}</dt>
                <dd className="mt-1 text-slate-900">{value}</dd>
              </div>
            ))}
          </dl>
          {sent ? (
            <Notice tone={sent.ok ? 'info' : 'error'} role={sent.ok ? 'status' : 'alert'}>
              {sent.text}
            </Notice>
          ) : null}
          <div className="flex flex-wrap items-end gap-2">
            <div>
              <label htmlFor={ids.tag} className="block text-sm font-medium text-slate-700">
                {t('ocpp.idTag')}
              </label>
              <input id={ids.tag} value={tag} onChange={(e) => setTag(e.target.value)} maxLength={20} className="mt-1 block rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-sm" />
            </div>
            <button type="button" className="btn-secondary" disabled={busy || !tag.trim()} onClick={() => void send('RemoteStartTransaction')}>
              {t('ocpp.remoteStart')}
            </button>
            <button type="button" className="btn-secondary" disabled={busy} onClick={() => void send('RemoteStopTransaction')}>
              {t('ocpp.remoteStop')}
            </button>
            <button type="button" className="btn-secondary" disabled={busy} onClick={() => void send('UnlockConnector')}>
              {t('ocpp.unlock')}
            </button>
          </div>
          <button type="button" className="btn-secondary" disabled={busy} onClick={() => void unbind()}>
            {t('ocpp.unbind')}
          </button>
        </>
      ) : (
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault()
            void bind()
          }}
        >
          <p className="text-sm text-slate-600">{t('ocpp.intro')}</p>
          <div className="grid gap-4 sm:grid-cols-2">
            <div>
              <label htmlFor={ids.cp} className="block text-sm font-medium text-slate-700">
                {t('ocpp.chargePointId')}
              </label>
              <input id={ids.cp} value={cpId} onChange={(e) => setCpId(e.target.value)} maxLength={48} pattern="[A-Za-z0-9._:\-]+" className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-sm" />
            </div>
            <div>
              <label htmlFor={ids.connector} className="block text-sm font-medium text-slate-700">
                {t('ocpp.connector')}
              </label>
              <input id={ids.connector} type="number" min={1} max={10} value={connector} onChange={(e) => setConnector(Number(e.target.value) || 1)} className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm" />
            </div>
          </div>
          <button type="submit" className="btn-primary" disabled={busy || !cpId.trim()}>
            {t('ocpp.bind')}
          </button>
        </form>
      )}
    </section>
  )
}
