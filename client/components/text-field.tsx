import type { InputHTMLAttributes, Ref, SelectHTMLAttributes } from 'react'
import { useId } from 'react'
import { cx } from './ui.tsx'

/**
 * A labelled input with its error below, tied by aria-describedby and aria-invalid (screen readers
 * announce the message with the field). Used by the logged-out forms.
 */
export function TextField({ label, error, inputRef, ...input }: { label: string; error?: string | null; inputRef?: Ref<HTMLInputElement> } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId()
  const errorId = useId()
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        {...input}
        ref={inputRef}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={cx(
          'mt-1 block w-full rounded-lg border bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-400 focus:outline-none focus:ring-2',
          error ? 'border-red-400 focus:border-red-500 focus:ring-red-500/30' : 'border-slate-300 focus:border-brand-500 focus:ring-brand-500/30',
        )}
      />
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  )
}

/** A labelled select with its error below (same contract as {@link TextField}). */
export function SelectField({ label, error, options, ...select }: { label: string; error?: string | null; options: { value: string; label: string }[] } & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId()
  const errorId = useId()
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        {...select}
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={cx(
          'mt-1 block w-full rounded-lg border bg-white px-3 py-2 text-slate-900 shadow-sm focus:outline-none focus:ring-2',
          error ? 'border-red-400 focus:ring-red-500/30' : 'border-slate-300 focus:border-brand-500 focus:ring-brand-500/30',
        )}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  )
}
