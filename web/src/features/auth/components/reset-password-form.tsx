import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from '@tanstack/react-router'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Skeleton } from '@/components/ui/skeleton'
import { toast } from '@/components/ui/toast'
import { isApiError } from '@/api/client'
import { passwordIsValid } from '@/lib/password'
import { useCheckPasswordReset } from '../api/check-password-reset'
import { useResetPassword } from '../api/reset-password'
import { AuthLayout } from './auth-layout'
import { PasswordInput } from './password-input'
import { PasswordRules } from './password-rules'

const expired = (e: unknown) => isApiError(e) && (e.code === 'oneTimeTokenExpired' || e.code === 'oneTimeTokenInvalid')

/**
 * ResetPasswordForm serves /reset-password and /change-password: the link
 * is checked first; a valid one shows the form, then success and /login;
 * an invalid or expired one shows 'Token Expired.' (spec 002 §4).
 */
export function ResetPasswordForm({ token, mode }: { token: string; mode: 'reset' | 'change' }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const check = useCheckPasswordReset(token)
  const reset = useResetPassword()
  const [password, setPassword] = useState('')
  const [confirm, setConfirm] = useState('')
  const [submitted, setSubmitted] = useState(false)
  const title = mode === 'reset' ? t('auth.resetTitle') : t('auth.changeTitle')

  if (check.isPending) {
    return (
      <AuthLayout title={title}>
        <div className="grid gap-3" aria-busy="true">
          <Skeleton className="h-9" />
          <Skeleton className="h-9" />
        </div>
      </AuthLayout>
    )
  }
  if (check.isError || (reset.error && expired(reset.error))) {
    return (
      <AuthLayout title={title}>
        <div className="grid gap-4">
          <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
            {expired(check.error ?? reset.error) || !isApiError(check.error) ? t('auth.tokenExpired') : t('auth.resetFailed')}
          </p>
          <Link to="/forgot-password" className="text-sm font-medium text-primary underline-offset-4 hover:underline">
            {t('auth.forgotPassword')}
          </Link>
        </div>
      </AuthLayout>
    )
  }

  const mismatch = confirm !== '' && confirm !== password
  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    setSubmitted(true)
    if (!passwordIsValid(password) || password !== confirm) return
    reset.mutate(
      { token, password },
      {
        onSuccess: () => {
          toast({ title: t('auth.resetSuccess'), variant: 'success' })
          void navigate({ to: '/login', replace: true })
        },
      },
    )
  }
  return (
    <AuthLayout title={title}>
      <form onSubmit={onSubmit} noValidate className="grid gap-4">
        {reset.isError && (
          <p role="alert" className="text-sm font-medium text-destructive">
            {t('auth.resetFailed')}
          </p>
        )}
        <FormField
          label={t('auth.newPassword')}
          description={<PasswordRules password={password} />}
          error={submitted && !passwordIsValid(password) ? t('auth.resetFailed') : undefined}
        >
          <PasswordInput name="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </FormField>
        <FormField
          label={t('auth.confirmPassword')}
          error={mismatch || (submitted && password !== confirm) ? t('auth.passwordsDiffer') : undefined}
        >
          <PasswordInput name="confirmPassword" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
        </FormField>
        <Button type="submit" disabled={reset.isPending}>
          {t('auth.savePassword')}
        </Button>
      </form>
    </AuthLayout>
  )
}
