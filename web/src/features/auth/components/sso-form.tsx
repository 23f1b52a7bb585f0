import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { FieldControl, FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { isApiError } from '@/api/client'
import { safeRedirect } from '@/lib/redirect'
import { useStartSSO } from '../api/start-sso'

function startErrorKey(e: unknown): string {
  if (isApiError(e)) {
    if (e.code === 'ssoUnavailable') return 'auth.sso.unavailable'
    if (e.status === 429) return 'global:error.tooManyRequests'
    if (e.code === 'validationFailed' || e.code === 'parametersMissingException') return 'auth.invalidEmail'
    return 'global:error.genericMessage'
  }
  return 'global:error.network'
}

/**
 * SSOForm is the login page's single sign-on: the person gives their work
 * address, the server finds their organization and the browser goes to its
 * identity provider, which comes back to /callbacks/auth.
 */
export function SSOForm({ redirect, onCancel }: { redirect?: string; onCancel: () => void }) {
  const { t } = useTranslation()
  const start = useStartSSO()
  const [email, setEmail] = useState('')
  const [leaving, setLeaving] = useState(false)

  const go = (organizationId?: string) =>
    start.mutate(
      { email, organizationId, redirect: safeRedirect(redirect) },
      {
        onSuccess: (r) => {
          if (r.authorizationUrl) {
            setLeaving(true)
            window.location.assign(r.authorizationUrl)
          }
        },
      },
    )
  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    if (email.trim()) go()
  }
  const choices = start.data?.organizations ?? []
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label={t('auth.sso.title')}>
      <p className="text-sm text-muted-foreground">{t('auth.sso.body')}</p>
      <FormField label={t('auth.sso.workEmail')} error={start.error ? t(startErrorKey(start.error)) : undefined}>
        <FieldControl>
          <Input type="email" name="ssoEmail" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
        </FieldControl>
      </FormField>
      {choices.length > 0 && (
        <div className="grid gap-2">
          <p className="text-sm">{t('auth.sso.chooseOrganization')}</p>
          {choices.map((o) => (
            <Button key={o.id} type="button" variant="outline" onClick={() => go(o.id)} disabled={start.isPending}>
              {o.name}
            </Button>
          ))}
        </div>
      )}
      <Button type="submit" disabled={start.isPending || leaving || !email.trim()}>
        {leaving ? t('auth.sso.redirecting') : t('auth.sso.continue')}
      </Button>
      <Button type="button" variant="link" onClick={onCancel}>
        {t('auth.sso.usePassword')}
      </Button>
    </form>
  )
}
