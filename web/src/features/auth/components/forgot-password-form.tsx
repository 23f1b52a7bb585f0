import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from '@tanstack/react-router'
import { Button } from '@/components/ui/button'
import { FieldControl, FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { isApiError } from '@/api/client'
import { isValidEmail } from '@/lib/password'
import { useRequestPasswordReset } from '../api/request-password-reset'
import { AuthLayout } from './auth-layout'

export function ForgotPasswordForm() {
  const { t } = useTranslation()
  const request = useRequestPasswordReset()
  const [email, setEmail] = useState('')
  const [invalid, setInvalid] = useState(false)

  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    if (!isValidEmail(email)) return setInvalid(true)
    setInvalid(false)
    request.mutate(email)
  }
  const serverError =
    request.error && isApiError(request.error) && request.error.status === 429
      ? t('global:error.tooManyRequests')
      : request.error
        ? isApiError(request.error) && request.error.code === 'validationFailed'
          ? t('auth.invalidEmail')
          : t('global:error.genericMessage')
        : undefined

  return (
    <AuthLayout title={t('auth.forgotTitle')} subtitle={t('auth.forgotBody')}>
      {request.isSuccess ? (
        <div className="grid gap-4">
          <p role="status" className="rounded-md border border-success/40 bg-success/10 px-3 py-2 text-sm">
            {t('auth.neutralSent')}
          </p>
          <Link to="/login" className="text-sm font-medium text-primary underline-offset-4 hover:underline">
            {t('auth.backToSignIn')}
          </Link>
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <FormField label={t('auth.email')} error={invalid ? t('auth.invalidEmail') : serverError}>
            <FieldControl>
              <Input type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
            </FieldControl>
          </FormField>
          <Button type="submit" disabled={request.isPending}>
            {t('auth.sendLink')}
          </Button>
          <Link to="/login" className="text-sm font-medium text-primary underline-offset-4 hover:underline">
            {t('auth.backToSignIn')}
          </Link>
        </form>
      )}
    </AuthLayout>
  )
}
