import { useEffect, useId, useRef } from 'react'
import type { ReactNode } from 'react'

/**
 * A modal confirmation (SPEC §5: deleting needs confirmation) on the native <dialog>: focus moves into
 * it, Escape and the cancel button close it, the page behind is inert. Texts come translated from the
 * caller. `busy` disables the confirm button while the action runs.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel,
  busy = false,
  onConfirm,
  onCancel,
}: {
  open: boolean
  title: string
  children?: ReactNode
  confirmLabel: string
  cancelLabel: string
  busy?: boolean
  onConfirm: () => void
  onCancel: () => void
}) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const textId = useId()
  useEffect(() => {
    const d = ref.current
    if (!d) return
    if (open && !d.open) d.showModal?.()
    if (!open && d.open) d.close()
  }, [open])
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={children ? textId : undefined}
      onCancel={(e) => {
        e.preventDefault()
        onCancel()
      }}
      className="w-[min(28rem,calc(100vw-2rem))] rounded-2xl border border-slate-200 p-0 shadow-xl backdrop:bg-slate-900/40"
    >
      {open ? (
        <div className="p-5">
          <h2 id={titleId} className="text-base font-semibold text-slate-900">
            {title}
          </h2>
          {children ? (
            <div id={textId} className="mt-2 text-sm text-slate-600">
              {children}
            </div>
          ) : null}
          <div className="mt-5 flex flex-wrap justify-end gap-2">
            <button type="button" className="btn-secondary" onClick={onCancel} autoFocus>
              {cancelLabel}
            </button>
            <button type="button" className="btn-primary bg-red-600 hover:bg-red-700" onClick={onConfirm} disabled={busy}>
              {confirmLabel}
            </button>
          </div>
        </div>
      ) : null}
    </dialog>
  )
}
