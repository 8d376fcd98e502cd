import { Link } from 'wouter'
import { useTranslation } from 'react-i18next'
import { AuthFrame } from './auth-frame.tsx'
import { paths } from '../../app/paths.ts'
import { useDocumentTitle } from '../../components/ui.tsx'

/** Placeholder for the password reset flow (SPEC §2), which a later issue builds. */
export default function ForgotPasswordPage() {
  const { t } = useTranslation('login')
  useDocumentTitle(t('forgotTitle'))
  return (
    <AuthFrame>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('forgotTitle')}</h1>
      <p className="mt-3 text-sm text-slate-600">{t('forgotSoon')}</p>
      <Link href={paths.login} className="btn-secondary mt-6 w-full">
        {t('backToLogin')}
      </Link>
    </AuthFrame>
  )
}
