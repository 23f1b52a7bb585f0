import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { RefreshCw, X } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { HUB_EVENTS, payloadOf } from '@/api/hub-events'
import { isNewerBuild } from '@/lib/build'
import { useHubEvents } from '@/lib/hub'

/**
 * DeploymentNotice tells a member whose tab runs an older build of the app
 * than the server now serves that a new version is available (spec 000
 * §4), with Refresh; it blocks nothing and may be closed.
 */
export function DeploymentNotice() {
  const { t } = useTranslation()
  const [version, setVersion] = useState<string>()
  const [closed, setClosed] = useState<string>()
  useHubEvents('*', (m) => {
    // Each connection's second message names the build its node serves.
    if (m.event !== HUB_EVENTS.deploymentCompleted) return
    const v = payloadOf(m, HUB_EVENTS.deploymentCompleted)?.version
    setVersion(isNewerBuild(v) ? v : undefined)
  })
  if (!version || closed === version) return null
  return (
    <div role="status" data-testid="deployment-notice" className="fixed bottom-4 left-4 z-50 flex max-w-[calc(100vw-2rem)] items-center gap-3 rounded-lg border bg-background p-3 shadow-lg">
      <RefreshCw aria-hidden className="size-5 shrink-0 text-primary" />
      <span className="text-sm">{t('deployment.available')}</span>
      <Button size="sm" onClick={() => window.location.reload()}>
        {t('deployment.refresh')}
      </Button>
      <Button size="icon" variant="ghost" className="size-8" aria-label={t('deployment.close')} onClick={() => setClosed(version)}>
        <X aria-hidden />
      </Button>
    </div>
  )
}
