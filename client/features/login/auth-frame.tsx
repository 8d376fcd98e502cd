import type { ReactNode } from 'react'
import { Brand } from '../../components/brand.tsx'
import { LanguageSelect } from '../../components/language-select.tsx'

/** The logged-out page frame: brand, language selector, a centered card. */
export function AuthFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col bg-gradient-to-br from-brand-50 via-white to-sky-50">
      <header className="flex items-center justify-between px-4 py-4 sm:px-8">
        <div className="flex items-center gap-2">
          <Brand />
        </div>
        <LanguageSelect />
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pb-16 pt-6 sm:items-center sm:pt-0">
        <div className="w-full max-w-sm rounded-2xl border border-slate-200 bg-white p-6 shadow-lg shadow-slate-200/60 sm:p-8">
          {children}
        </div>
      </main>
    </div>
  )
}
