import { useId, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { Installation } from '../../../shared/schemas/installation.ts'
import { errorMessage, fieldErrors } from '../../api/errors.ts'
import { Card, Loading, Notice, useDocumentTitle, Outcome } from '../../components/ui.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { ConfirmDialog } from '../../components/confirm-dialog.tsx'
import { LegalTextDialog, type LegalDocText } from '../../components/legal-text-dialog.tsx'
import { useFormats } from '../../components/use-formats.ts'
import { fetchVersions, legalKeys, publishVersion, type LegalLang, type LegalVersion } from './api.ts'
import { meKeys } from '../settings/api.ts'
import { clientDate } from '../../api/clock.ts'

const DOCUMENTS = ['terms', 'privacy'] as const
const LANGS: readonly LegalLang[] = ['en', 'de', 'fr', 'it']

/**
 * Management → Legal texts (superusers: the documents hold for every installation): the
 * current terms of use and privacy policy with their versions, each readable in the four languages, and
 * a form to publish a new version (text in all four languages, confirmed first), after which everyone
 * is asked to accept again.
 */
export default function LegalPage({ installation }: { installation: Installation }) {
  const { t } = useTranslation('legal')
  const { t: tc } = useTranslation()
  useDocumentTitle(t('title'))
  const f = useFormats(installation.timezone)
  const queryClient = useQueryClient()
  const query = useQuery({ queryKey: legalKeys.versions(), queryFn: ({ signal }) => fetchVersions(signal) })
  const versions = query.data ?? null
  const [message, setMessage] = useState<string | null>(null)
  const [reading, setReading] = useState<LegalDocText | null>(null)

  const read = (v: LegalVersion, lang: LegalLang) =>
    setReading({ document: v.document, version: v.version, title: `${t(`document.${v.document}`)} (${t(`lang.${lang}`)})`, text: v.texts[lang], published_at: v.published_at })

  return (
    <div className="mx-auto max-w-4xl space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('title')}</h1>
      <p className="text-sm text-slate-600">{t('intro')}</p>
      <Outcome message={message} />
      <LegalTextDialog doc={reading} onClose={() => setReading(null)} />
      {versions === null ? query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={tc('loading')} /> : null}
      {versions
        ? DOCUMENTS.map((doc) => {
            const list = versions.filter((v) => v.document === doc)
            return (
              <Card key={doc} titleId={`legal-${doc}`} title={t(`document.${doc}`)}>
                <ul className="space-y-2 text-sm">
                  {list.map((v, i) => (
                    <li key={v.version} className="flex flex-wrap items-center justify-between gap-2">
                      <span>
                        {t('versionLine', { version: v.version, date: f.date(v.published_at) })}
                        {i === 0 ? <strong className="ml-2 text-brand-700">{t('current')}</strong> : null}
                        {v.published_by ? <span className="ml-2 text-slate-500">{t('by', { who: v.published_by })}</span> : null}
                      </span>
                      <span className="flex flex-wrap gap-1">
                        {LANGS.map((l) => (
                          <button key={l} type="button" className="rounded border border-slate-300 px-2 py-0.5 text-xs hover:bg-slate-100" aria-label={t('readNamed', { document: t(`document.${doc}`), version: v.version, lang: t(`lang.${l}`) })} onClick={() => read(v, l)}>
                            {l.toUpperCase()}
                          </button>
                        ))}
                      </span>
                    </li>
                  ))}
                </ul>
              </Card>
            )
          })
        : null}
      {versions ? (
        <PublishForm
          versions={versions}
          onPublished={(v) => {
            setMessage(t('published', { document: t(`document.${v.document}`), version: v.version }))
            // The new version is listed here, and the superuser too is asked to accept it (Settings, reminder).
            void queryClient.invalidateQueries({ queryKey: legalKeys.versions() })
            void queryClient.invalidateQueries({ queryKey: meKeys.legal() })
          }}
        />
      ) : null}
    </div>
  )
}

function PublishForm({ versions, onPublished }: { versions: LegalVersion[]; onPublished: (v: LegalVersion) => void }) {
  const { t } = useTranslation('legal')
  const { t: tc } = useTranslation()
  const titleId = useId()
  const latest = (doc: LegalVersion['document']) => versions.find((v) => v.document === doc)
  const [document, setDocument] = useState<LegalVersion['document']>('terms')
  const [version, setVersion] = useState(() => clientDate().toISOString().slice(0, 10))
  const [texts, setTexts] = useState<Record<LegalLang, string>>(() => latest('terms')?.texts ?? { en: '', de: '', fr: '', it: '' })
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [problem, setProblem] = useState<string | null>(null)
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)

  function submit(e: FormEvent) {
    e.preventDefault()
    const found: Record<string, string> = {}
    if (!version.trim()) found.version = t('required')
    for (const l of LANGS) if (!texts[l].trim()) found[`texts.${l}`] = t('required')
    setErrors(found)
    setProblem(Object.keys(found).length ? t('checkFields') : null)
    if (!Object.keys(found).length) setConfirming(true)
  }

  async function publish() {
    setBusy(true)
    try {
      const v = await publishVersion({ document, version: version.trim(), texts })
      setConfirming(false)
      onPublished(v)
    } catch (err) {
      setConfirming(false)
      const fe = fieldErrors(err)
      setErrors(fe)
      setProblem(Object.keys(fe).length ? t('checkFields') : errorMessage(err, tc))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card titleId={titleId} title={t('publishTitle')}>
      <form aria-labelledby={titleId} onSubmit={submit} noValidate className="space-y-3">
        <p className="text-sm text-slate-600">{t('publishIntro')}</p>
        {problem ? (
          <Notice tone="error" role="alert">
            {problem}
          </Notice>
        ) : null}
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <label className="block text-sm font-medium text-slate-700">
            {t('documentLabel')}
            <select
              className="mt-1 w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm"
              value={document}
              onChange={(e) => {
                const d = e.target.value as LegalVersion['document']
                setDocument(d)
                setTexts(latest(d)?.texts ?? { en: '', de: '', fr: '', it: '' })
              }}
            >
              {DOCUMENTS.map((d) => (
                <option key={d} value={d}>
                  {t(`document.${d}`)}
                </option>
              ))}
            </select>
          </label>
          <div>
            <label className="block text-sm font-medium text-slate-700">
              {t('versionLabel')}
              <input className="mt-1 w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm" value={version} onChange={(e) => setVersion(e.target.value)} aria-invalid={errors.version ? true : undefined} />
            </label>
            {errors.version ? <p className="mt-1 text-xs text-red-700">{errors.version}</p> : null}
          </div>
        </div>
        {LANGS.map((l) => (
          <div key={l}>
            <label className="block text-sm font-medium text-slate-700">
              {t('textLabel', { lang: t(`lang.${l}`) })}
              <textarea rows={6} lang={l} className="mt-1 w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm" value={texts[l]} onChange={(e) => setTexts({ ...texts, [l]: e.target.value })} aria-invalid={errors[`texts.${l}`] ? true : undefined} />
            </label>
            {errors[`texts.${l}`] ? <p className="mt-1 text-xs text-red-700">{errors[`texts.${l}`]}</p> : null}
          </div>
        ))}
        <button type="submit" className="btn-primary">
          {t('publish')}
        </button>
      </form>
      <ConfirmDialog open={confirming} title={t('confirmTitle', { document: t(`document.${document}`), version })} confirmLabel={t('publish')} cancelLabel={t('cancel')} busy={busy} onConfirm={() => void publish()} onCancel={() => setConfirming(false)}>
        {t('confirmText')}
      </ConfirmDialog>
    </Card>
  )
}
