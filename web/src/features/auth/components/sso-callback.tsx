import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from '@tanstack/react-router'
import { isApiError } from '@/api/client'
import { useSignedIn } from '../hooks/use-signed-in'
import { HOME_PATH, safeRedirect } from '@/lib/redirect'
import { completeSSO } from '../api/complete-sso'
import { AuthLayout } from './auth-layout'

function callbackErrorKey(e: unknown): string {
  if (isApiError(e)) {
    switch (e.code) {
      case 'ssoEmailNotVerified':
        return 'auth.sso.notVerified'
      case 'ssoNotMember':
        return 'auth.sso.notMember'
      case 'ssoAccountNotLinked':
        return 'auth.sso.notLinked'
      case 'ssoFlowExpired':
        return 'auth.sso.expired'
    }
    return 'auth.sso.failed'
  }
  return 'global:error.network'
}

// A state is good for one call; React's development double effects (and a
// re-render) must not spend it twice.
const finishing = new Map<string, ReturnType<typeof completeSSO>>()

/** SSOCallback finishes a single sign-on at /callbacks/auth and lands where the sign-in was headed. */
export function SSOCallback({ state, code, error }: { state?: string; code?: string; error?: string }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const signedIn = useSignedIn()
  const [failure, setFailure] = useState<string | undefined>(error || !state || !code ? 'auth.sso.failed' : undefined)

  useEffect(() => {
    if (!state || !code || error) return
    let call = finishing.get(state)
    if (!call) {
      call = completeSSO({ state, code })
      finishing.set(state, call)
    }
    let live = true
    call.then(
      (body) => {
        if (!live) return
        signedIn(body)
        void navigate({ href: safeRedirect(body.redirect) ?? HOME_PATH, replace: true })
      },
      (e: unknown) => live && setFailure(callbackErrorKey(e)),
    )
    return () => {
      live = false
    }
  }, [state, code, error, signedIn, navigate])

  return (
    <AuthLayout title={t('auth.sso.title')}>
      {failure ? (
        <div className="grid gap-4">
          <p role="alert" className="text-sm text-destructive">
            {t(failure)}
          </p>
          <Link to="/login" className="text-sm font-medium text-primary underline-offset-4 hover:underline">
            {t('auth.backToSignIn')}
          </Link>
        </div>
      ) : (
        <p role="status" className="text-sm text-muted-foreground">
          {t('auth.sso.completing')}
        </p>
      )}
    </AuthLayout>
  )
}
