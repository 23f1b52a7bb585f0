import { useEffect, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from '@tanstack/react-router'
import { Button } from '@/components/ui/button'
import { persistedStore } from '@/lib/persisted-store'

/** isChunkLoadError: a lazily loaded file could not be fetched (usually a new deployment). */
export function isChunkLoadError(e: unknown) {
  const m = e instanceof Error ? `${e.name} ${e.message}` : String(e)
  return /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|ChunkLoadError|Unable to preload CSS/i.test(m)
}

// When the last reload for a chunk error was, for this tab alone.
const chunkReloadAt = persistedStore('agora.chunkReloadAt', { fallback: 0, parse: Number, storage: () => sessionStorage })

/** reloadForChunkError reloads once; a second failure in 10 s shows the crash screen instead of looping. */
export function reloadForChunkError(): boolean {
  if (Date.now() - chunkReloadAt.get() < 10_000) return false
  chunkReloadAt.set(Date.now())
  window.location.reload()
  return true
}

export function MessagePage({ code, title, body, action }: { code?: string; title: string; body: string; action?: ReactNode }) {
  return (
    <main id="main" className="flex min-h-[70dvh] flex-col items-center justify-center gap-4 px-6 py-16 text-center">
      {code && <p className="text-6xl font-bold tracking-tight text-primary">{code}</p>}
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="max-w-md text-muted-foreground">{body}</p>
      {action}
    </main>
  )
}

export function NotFoundPage() {
  const { t } = useTranslation()
  return (
    <MessagePage
      code="404"
      title={t('error.notFoundTitle')}
      body={t('error.notFoundBody')}
      action={
        <Button asChild>
          <Link to="/home">{t('error.goHome')}</Link>
        </Button>
      }
    />
  )
}

/** CrashScreen is the render-crash fallback: the generic message and a reload. */
export function CrashScreen({ error }: { error?: unknown }) {
  const { t } = useTranslation()
  const chunk = isChunkLoadError(error)
  useEffect(() => {
    if (chunk) reloadForChunkError()
  }, [chunk])
  return (
    <MessagePage
      title={t('error.crashTitle')}
      body={t('error.crashBody')}
      action={
        <Button onClick={() => window.location.reload()} data-testid="reload">
          {t('error.reload')}
        </Button>
      }
    />
  )
}
