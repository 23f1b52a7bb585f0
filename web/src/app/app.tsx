import { Component, useEffect, useState, type ReactNode } from 'react'
import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import i18n from '@/i18n'
import { Button } from '@/components/ui/button'
import { toast } from '@/components/ui/toast'
import { makeQueryClient } from '@/lib/query-client'
import { Session } from '@/lib/session'
import { SessionContext } from '@/lib/session-context'
import { isAuthPage } from '@/lib/redirect'
import { CrashScreen, isChunkLoadError, MessagePage, reloadForChunkError } from './error-screens'
import { makeRouter } from './router'

/** makeApp wires the query cache, the session and the router together. */
export function makeApp() {
  const queryClient = makeQueryClient()
  const session = new Session(queryClient)
  const router = makeRouter(queryClient, session)
  session.onSignedOut(({ reason }) => {
    const loc = router.state.location
    // A 401 signs out with a message, unless already on /login (spec 000 §4).
    if (reason === 'expired' && loc.pathname !== '/login') toast({ title: i18n.t('session.expired'), variant: 'destructive' })
    // Then /login, with the page as the redirect unless on an auth page.
    const search = isAuthPage(loc.pathname) || loc.pathname === '/logout' ? {} : { redirect: loc.href }
    void router.navigate({ to: '/login', search, replace: true })
  })
  return { queryClient, session, router }
}

/** App waits for the stored-token check before rendering anything (spec 000 §2.1). */
export function App({ app }: { app: ReturnType<typeof makeApp> }) {
  const [state, setState] = useState<'checking' | 'ready' | 'failed'>('checking')
  const boot = () => {
    setState('checking')
    // The page's code and data load while the token is checked, rather
    // than after: in a fresh browser the check, the route's chunks and its
    // first reads were one after another.
    if (app.session.tokenPending) {
      const { pathname, search, hash } = window.location
      // (The href wins over to, which the types ask for.)
      app.router.preloadRoute({ to: '/', href: pathname + search + hash }).catch(() => {})
    }
    app.session.boot().then(
      () => {
        // The start-up check is a call too: a refused token signs out with
        // the message, unless on /login.
        if (app.session.expiredAtBoot && window.location.pathname !== '/login')
          toast({ title: i18n.t('session.expired'), variant: 'destructive' })
        setState('ready')
      },
      () => setState('failed'),
    )
  }
  useEffect(boot, [app])
  if (state === 'checking') return <div aria-busy="true" className="min-h-dvh" />
  if (state === 'failed') return <BootFailed onRetry={boot} />
  return (
    <CrashBoundary>
      <SessionContext.Provider value={app.session}>
        <QueryClientProvider client={app.queryClient}>
          <RouterProvider router={app.router} />
        </QueryClientProvider>
      </SessionContext.Provider>
    </CrashBoundary>
  )
}

function BootFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation()
  return (
    <MessagePage
      title={t('session.bootFailed')}
      body={t('global:error.network')}
      action={<Button onClick={onRetry}>{t('error.retry')}</Button>}
    />
  )
}

/** CrashBoundary catches render crashes outside the router's own boundaries. */
class CrashBoundary extends Component<{ children: ReactNode }, { error?: unknown }> {
  state: { error?: unknown } = {}
  static getDerivedStateFromError(error: unknown) {
    return { error }
  }
  componentDidCatch(error: unknown) {
    if (isChunkLoadError(error)) reloadForChunkError()
  }
  render() {
    return this.state.error !== undefined ? <CrashScreen error={this.state.error} /> : this.props.children
  }
}
