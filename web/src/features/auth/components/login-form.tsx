import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from '@tanstack/react-router'
import { Button } from '@/components/ui/button'
import { FieldControl, FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { isApiError } from '@/api/client'
import { useSignedIn } from '../hooks/use-signed-in'
import { HOME_PATH, safeRedirect } from '@/lib/redirect'
import { useSignIn } from '../api/sign-in'
import { PasswordInput } from './password-input'
import { AuthLayout } from './auth-layout'
import { TermsNotice } from './terms-notice'
import { SSOForm } from './sso-form'

/** serverMessage turns a failed sign-in into the text under the password field. */
export function signInErrorKey(e: unknown): string {
  if (isApiError(e)) {
    if (e.code === 'loginAuthentication' || e.status === 401) return 'global:error.loginAuthentication'
    if (e.status === 429) return 'global:error.tooManyRequests'
    if (e.code === 'parametersMissingException') return 'auth.checkEmailPassword'
    return 'global:error.genericMessage'
  }
  return 'global:error.network'
}

export function LoginForm({ redirect }: { redirect?: string }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const signedIn = useSignedIn()
  const signIn = useSignIn()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [blocked, setBlocked] = useState(false)
  const [sso, setSSO] = useState(false)

  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    // The form is blocked while invalid (spec 000 §5): both fields required.
    if (!email.trim() || !password) {
      setBlocked(true)
      return
    }
    setBlocked(false)
    signIn.mutate(
      { email, password },
      {
        onSuccess: (body) => {
          signedIn(body)
          void navigate({ href: safeRedirect(redirect) ?? HOME_PATH, replace: true })
        },
      },
    )
  }

  const serverError = signIn.error ? t(signInErrorKey(signIn.error)) : undefined
  if (sso) {
    return (
      <AuthLayout title={t('auth.sso.title')} subtitle={t('auth.signInSubtitle')}>
        <SSOForm redirect={redirect} onCancel={() => setSSO(false)} />
      </AuthLayout>
    )
  }
  return (
    <AuthLayout title={t('auth.signInTitle')} subtitle={t('auth.signInSubtitle')}>
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        {blocked && (
          <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
            {t('auth.checkEmailPassword')}
          </p>
        )}
        <FormField label={t('auth.email')}>
          <FieldControl>
            <Input type="email" name="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
          </FieldControl>
        </FormField>
        <FormField label={t('auth.password')} error={serverError}>
          <PasswordInput name="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </FormField>
        <div className="-mt-2 text-right">
          <Link to="/forgot-password" className="text-sm font-medium text-primary underline-offset-4 hover:underline">
            {t('auth.forgotPassword')}
          </Link>
        </div>
        <Button type="submit" disabled={signIn.isPending}>
          {signIn.isPending ? t('auth.signingIn') : t('auth.signIn')}
        </Button>
        <Button type="button" variant="outline" onClick={() => setSSO(true)}>
          {t('auth.sso.start')}
        </Button>
        <TermsNotice action="signIn" />
        <p className="text-xs text-muted-foreground">{t('auth.invitationLink')}</p>
      </form>
    </AuthLayout>
  )
}
