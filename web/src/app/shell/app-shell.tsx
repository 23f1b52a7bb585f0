import { Outlet, useParams } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { TooltipProvider } from '@/components/ui/tooltip'
import { useMyCommunities } from '@/features/communities/api/get-my-communities'
import { manageable } from '@/features/communities/hooks/community-list'
import { RightPanel, type PanelContext } from './right-panel'
import { TopBar } from './top-bar'

/**
 * AppShell frames the authenticated pages: the top bar, the page, and the
 * right-side panel.
 *
 * The Manage menu's rules (spec 000 §2.2, §6) need the organizations the
 * user can manage, which the API does not serve yet: Accounts shows for
 * super users (who may manage every organization), Communities for users
 * who administer a community (from GET /api/communities). Organization
 * admins who administer no community do not see the menu until an
 * organizations endpoint exists.
 */
export function AppShell() {
  const { t } = useTranslation()
  const communities = useMyCommunities()
  const params = useParams({ strict: false }) as { seriesId?: string; communityId?: string }
  const forum = params.seriesId
    ? communities.data?.results.flatMap((c) => c.series.map((f) => ({ f, admin: manageable(c) || f.role === 'admin' }))).find((x) => x.f.id === params.seriesId)
    : undefined
  const panel: PanelContext = {
    forumSelected: !!params.seriesId,
    forumAdmin: !!forum?.admin,
    forum: params.seriesId && params.communityId ? { seriesId: params.seriesId, communityId: params.communityId } : undefined,
  }
  return (
    <TooltipProvider delayDuration={300}>
      <a href="#main" className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50 focus:rounded-md focus:bg-background focus:px-3 focus:py-2">
        {t('app.skipToContent')}
      </a>
      <TopBar panel={panel} />
      <div className="flex">
        <main id="main" className="min-w-0 flex-1">
          <Outlet />
        </main>
        <RightPanel context={panel} />
      </div>
    </TooltipProvider>
  )
}
