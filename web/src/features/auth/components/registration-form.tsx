import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Navigate, useNavigate } from '@tanstack/react-router'
import { Button } from '@/components/ui/button'
import { FieldControl, FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Skeleton } from '@/components/ui/skeleton'
import { isApiError, type Schemas } from '@/api/client'
import { passwordIsValid } from '@/lib/password'
import { useCurrentUser } from '@/lib/session-context'
import { useSignedIn } from '../hooks/use-signed-in'
import { HOME_PATH } from '@/lib/redirect'
import { useValidateToken } from '../api/validate-token'
import { useRegister } from '../api/register'
import { signIn } from '../api/sign-in'
import { joinProfile } from '../api/join-profile'
import { AuthLayout } from './auth-layout'
import { PasswordInput } from './password-input'
import { PasswordRules } from './password-rules'
import { TermsNotice } from './terms-notice'
import { signInErrorKey } from './login-form'

type Mode = 'invitation' | 'registration'

/**
 * TokenRegistration serves /accept-invitation and /registration: the token
 * is validated, then the account is created (and signed in), or, when an
 * account with the invited address exists, the person signs in and the
 * invitation's profile is joined to it (spec 002 §4).
 */
export function TokenRegistration({ token, email, mode }: { token?: string; email?: string; mode: Mode }) {
  const { t } = useTranslation()
  const errorPath = mode === 'invitation' ? '/accept-invitation/error/$errorCode' : '/registration/error/$errorCode'
  const check = useValidateToken(token ?? '', email)
  const title = mode === 'invitation' ? t('auth.acceptTitle') : t('auth.registrationTitle')

  if (!token) {
    return <Navigate to={errorPath} params={{ errorCode: 'parametersMissingException' }} replace />
  }
  if (check.isPending) {
    return (
      <AuthLayout title={title}>
        <div className="grid gap-3" aria-busy="true">
          <Skeleton className="h-9" />
          <Skeleton className="h-9" />
          <Skeleton className="h-9" />
        </div>
      </AuthLayout>
    )
  }
  if (check.isError) {
    const code = isApiError(check.error) ? check.error.code : 'unknown'
    return <Navigate to={errorPath} params={{ errorCode: code }} replace />
  }
  const inv = check.data
  return (
    <AuthLayout
      title={title}
      subtitle={inv.organizationName ? t('auth.acceptBody', { organization: invitedTo(inv) }) : undefined}
    >
      {inv.hasAccount ? <JoinExisting token={token} invitation={inv} /> : <RegisterNew token={token} invitation={inv} />}
    </AuthLayout>
  )
}

/** invitedTo names where the invitation leads: the forum, community or organization. */
function invitedTo(inv: Schemas['Invitation']): string {
  return inv.forum?.name ?? inv.community?.name ?? inv.organizationName
}

/** landing is where an accepted invitation leads: the forum or community it was sent from, or home. */
function landing(inv: Schemas['Invitation']) {
  if (inv.community && inv.forum) {
    return { to: '/communities/$communityId/series/$seriesId', params: { communityId: inv.community.id, seriesId: inv.forum.id } } as const
  }
  if (inv.community) return { to: '/communities/$communityId', params: { communityId: inv.community.id } } as const
  return { to: HOME_PATH } as const
}

function RegisterNew({ token, invitation }: { token: string; invitation: Schemas['Invitation'] }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const signedIn = useSignedIn()
  const register = useRegister()
  const [firstName, setFirstName] = useState(invitation.firstName)
  const [lastName, setLastName] = useState(invitation.lastName)
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [submitted, setSubmitted] = useState(false)

  const nameError = (v: string) => (!submitted ? undefined : !v.trim() ? t('auth.required') : v.trim().length > 50 ? t('auth.nameTooLong') : undefined)
  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    setSubmitted(true)
    if (nameError(firstName) || nameError(lastName) || !firstName.trim() || !lastName.trim()) return
    if (!passwordIsValid(password) || password !== confirm) return
    register.mutate(
      { token, firstName: firstName.trim(), lastName: lastName.trim(), password },
      {
        onSuccess: (body) => {
          signedIn(body)
          void navigate({ ...landing(invitation), replace: true })
        },
      },
    )
  }
  const serverError = register.error
    ? isApiError(register.error)
      ? t(`auth.registrationErrors.${register.error.code}`, { defaultValue: t('auth.registrationErrors.registrationCreating') })
      : t('global:error.network')
    : undefined
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      {serverError && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {serverError}
        </p>
      )}
      <FormField label={t('auth.email')}>
        <FieldControl>
          <Input type="email" name="email" value={invitation.email} readOnly autoComplete="username" />
        </FieldControl>
      </FormField>
      <div className="grid grid-cols-2 gap-3">
        <FormField label={t('auth.firstName')} error={nameError(firstName)}>
          <FieldControl>
            <Input name="firstName" autoComplete="given-name" value={firstName} onChange={(e) => setFirstName(e.target.value)} />
          </FieldControl>
        </FormField>
        <FormField label={t('auth.lastName')} error={nameError(lastName)}>
          <FieldControl>
            <Input name="lastName" autoComplete="family-name" value={lastName} onChange={(e) => setLastName(e.target.value)} />
          </FieldControl>
        </FormField>
      </div>
      <FormField
        label={t('auth.password')}
        description={<PasswordRules password={password} />}
        error={submitted && !passwordIsValid(password) ? t('auth.resetFailed') : undefined}
      >
        <PasswordInput name="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      </FormField>
      <FormField
        label={t('auth.confirmPassword')}
        error={(confirm !== '' || submitted) && confirm !== password ? t('auth.passwordsDiffer') : undefined}
      >
        <PasswordInput name="confirmPassword" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
      </FormField>
      <Button type="submit" disabled={register.isPending}>
        {register.isPending ? t('auth.creatingAccount') : t('auth.createAccount')}
      </Button>
      <TermsNotice action="register" />
    </form>
  )
}

function JoinExisting({ token, invitation }: { token: string; invitation: Schemas['Invitation'] }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const signedIn = useSignedIn()
  const current = useCurrentUser()
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      if (current) {
        await joinProfile({ userId: current.user.id, token })
      } else {
        const body = await signIn({ email: invitation.email, password })
        await joinProfile({ userId: body.user.id, token, accessToken: body.accessToken })
        signedIn(body)
      }
      void navigate({ ...landing(invitation), replace: true })
    } catch (err) {
      setError(
        isApiError(err) && err.code !== 'loginAuthentication'
          ? t(`auth.registrationErrors.${err.code}`, { defaultValue: t('auth.registrationErrors.unknown') })
          : t(signInErrorKey(err)),
      )
    } finally {
      setBusy(false)
    }
  }
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <p className="text-sm text-muted-foreground">{t('auth.joinWithAccount')}</p>
      <FormField label={t('auth.email')}>
        <FieldControl>
          <Input type="email" value={invitation.email} readOnly autoComplete="username" />
        </FieldControl>
      </FormField>
      {!current && (
        <FormField label={t('auth.password')} error={error}>
          <PasswordInput name="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </FormField>
      )}
      {current && error && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
      <Button type="submit" disabled={busy}>
        {t('auth.join')}
      </Button>
    </form>
  )
}
