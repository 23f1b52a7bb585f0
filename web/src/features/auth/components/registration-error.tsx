import { useTranslation } from 'react-i18next'
import { Link } from '@tanstack/react-router'
import { AuthLayout } from './auth-layout'

const known = [
  'invitationValidating',
  'confirmationValidating',
  'registrationCreating',
  'registrationCreatingExistingEmail',
  'parametersMissingException',
  'profileAlreadyJoined',
]

/** RegistrationError is /registration/error/{code} and /accept-invitation/error/{code}. */
export function RegistrationError({ code, mode }: { code: string; mode: 'invitation' | 'registration' }) {
  const { t } = useTranslation()
  const key = known.includes(code) ? code : 'unknown'
  return (
    <AuthLayout title={mode === 'invitation' ? t('auth.acceptTitle') : t('auth.registrationTitle')}>
      <div className="grid gap-4">
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
          {t(`auth.registrationErrors.${key}`)}
        </p>
        <Link to="/login" className="text-sm font-medium text-primary underline-offset-4 hover:underline">
          {t('auth.backToSignIn')}
        </Link>
      </div>
    </AuthLayout>
  )
}
