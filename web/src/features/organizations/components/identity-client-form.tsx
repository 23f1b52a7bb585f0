import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { isApiError } from '@/api/client'
import { Button } from '@/components/ui/button'
import { FieldControl, FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { toast } from '@/components/ui/toast'
import { useRemoveIdentityClient } from '../api/remove-identity-client'
import { useSetIdentityClient } from '../api/set-identity-client'
import type { IdentityClient, Organization } from '../api/types'

type Field = keyof Required<IdentityClient>
const FIELDS: Field[] = ['issuer', 'clientId', 'clientSecret']

/**
 * IdentityClientForm turns an organization's single sign-on on (or changes
 * its OpenID Connect client: issuer, client id, secret) and off, for its
 * admins and super users. The server checks the issuer by reading its
 * discovery document; its field errors show under the fields. The secret
 * is never read back, so a change gives all three again.
 */
export function IdentityClientForm({ org }: { org: Organization }) {
  const { t } = useTranslation()
  const set = useSetIdentityClient(org.id)
  const remove = useRemoveIdentityClient(org.id)
  const [values, setValues] = useState<Record<Field, string>>({ issuer: org.identityClient ?? '', clientId: '', clientSecret: '' })
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({})
  const complete = FIELDS.every((f) => values[f].trim())
  const busy = set.isPending || remove.isPending

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (!complete || busy) return
    setErrors({})
    set.mutate(
      { issuer: values.issuer.trim(), clientId: values.clientId.trim(), clientSecret: values.clientSecret },
      {
        onSuccess: () => {
          setValues((v) => ({ ...v, clientSecret: '' }))
          toast({ title: t('accounts.sso.saved'), variant: 'success' })
        },
        onError: (err) => {
          const found = fieldErrors(err, t('accounts.sso.required'))
          setErrors(found)
          if (Object.keys(found).length === 0) toast({ title: t('accounts.sso.saveFailed'), variant: 'destructive' })
        },
      },
    )
  }
  const turnOff = () =>
    remove.mutate(undefined, {
      onSuccess: () => toast({ title: t('accounts.sso.removed'), variant: 'success' }),
      onError: () => toast({ title: t('accounts.sso.removeFailed'), variant: 'destructive' }),
    })

  const field = (f: Field, type = 'text') => (
    <FormField label={t(`accounts.sso.${f}`)} error={errors[f]}>
      <FieldControl>
        <Input
          name={f}
          type={type}
          autoComplete="off"
          value={values[f]}
          onChange={(e) => {
            setValues((v) => ({ ...v, [f]: e.target.value }))
            setErrors((x) => ({ ...x, [f]: undefined }))
          }}
        />
      </FieldControl>
    </FormField>
  )
  return (
    <form onSubmit={submit} noValidate className="mt-4 grid gap-4" data-testid="identity-client-form">
      {field('issuer', 'url')}
      {field('clientId')}
      {field('clientSecret', 'password')}
      <p className="text-xs text-muted-foreground">{t('accounts.sso.redirectHint', { url: `${window.location.origin}/callbacks/auth` })}</p>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={!complete || busy}>
          {set.isPending ? t('accounts.saving') : org.identityClient ? t('accounts.sso.change') : t('accounts.sso.turnOn')}
        </Button>
        {org.identityClient && (
          <Button type="button" variant="outline" disabled={busy} onClick={turnOff}>
            {t('accounts.sso.turnOff')}
          </Button>
        )}
      </div>
    </form>
  )
}

/** fieldErrors are the server's refusals per field: a message for an invalid one, required for a missing one. */
function fieldErrors(err: unknown, required: string): Partial<Record<Field, string>> {
  if (!isApiError(err) || err.status !== 400) return {}
  const out: Partial<Record<Field, string>> = {}
  for (const f of FIELDS) {
    const msg = err.details?.fields?.[f]
    if (msg) out[f] = msg.charAt(0).toUpperCase() + msg.slice(1) + (msg.endsWith('.') ? '' : '.')
    else if (err.details?.missing?.includes(f)) out[f] = required
  }
  return out
}
