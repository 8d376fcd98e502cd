import { useEffect, useId, useRef } from 'react'
import { useTranslation } from 'react-i18next'

/** A legal document as the API gives it (GET /api/cockpit/legal or …/legal/texts): one language. */
export interface LegalDocText {
  document: string
  version: string
  title: string
  text: string
  published_at: string
  accepted_at?: string | null
}

/**
 * The text of a legal document in a modal dialog, so terms and privacy policy can be
 * read before "Accept": title, version, the text as written (line breaks kept), and Close; with
 * `onAccept`, an Accept button too (the caller decides whether the document still needs accepting).
 */
export function LegalTextDialog({ doc, onClose, onAccept, busy = false }: { doc: LegalDocText | null; onClose: () => void; onAccept?: () => void; busy?: boolean }) {
  const { t } = useTranslation()
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  useEffect(() => {
    const d = ref.current
    if (!d) return
    if (doc && !d.open) d.showModal?.()
    if (!doc && d.open) d.close()
  }, [doc])
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault()
        onClose()
      }}
      className="w-[min(40rem,calc(100vw-2rem))] rounded-2xl border border-slate-200 p-0 shadow-xl backdrop:bg-slate-900/40"
    >
      {doc ? (
        <div className="flex max-h-[85vh] flex-col p-5">
          <h2 id={titleId} className="text-base font-semibold text-slate-900">
            {doc.title}
          </h2>
          <p className="text-xs text-slate-500">{t('legal.version', { version: doc.version })}</p>
          <div tabIndex={0} className="mt-3 min-h-0 flex-1 overflow-y-auto whitespace-pre-wrap rounded-lg bg-slate-50 p-3 text-sm text-slate-800" data-testid="legal-text">
            {doc.text}
          </div>
          <div className="mt-4 flex flex-wrap justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={onClose} autoFocus>
              {t('legal.close')}
            </button>
            {onAccept ? (
              <button type="button" className="btn-primary" onClick={onAccept} disabled={busy}>
                {t('legal.accept')}
              </button>
            ) : null}
          </div>
        </div>
      ) : null}
    </dialog>
  )
}
