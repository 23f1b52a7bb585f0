import { lazy, Suspense, useEffect } from 'react'
import { Outlet, useLocation, useParams } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { TooltipProvider } from '@/components/ui/tooltip'
import { useMyCommunities } from '@/features/communities/api/get-my-communities'
import { manageable } from '@/features/communities/hooks/community-list'
import { useChatLive, useUnreadChats } from '@/features/chat/components/chat-panel'
import { openChat } from '@/features/chat/lib/open-chat'
import { MeetupReminder } from '@/features/meetups/components/reminder-alert'
import { useMeetupRoom } from '@/features/meetups/room/context'
import { MeetupRoomProvider } from '@/features/meetups/room/provider'
import { useMeetingsLive } from '@/features/meetups/hooks/use-meetings-live'
import { useNotificationsLive } from '@/features/notifications/hooks/use-notifications-live'
import { usePresenceLive } from '@/features/presence/peers-cache'
import { ProfileDialogHost } from '@/features/profile/components/profile-dialog'
import { useSubscriptionsLive } from '@/features/subscriptions/hooks/use-subscriptions-live'
import { usePersonalizationLive } from '@/lib/personalization'
import { useAdminLive } from './admin-live'
import { useForumAccess } from './forum-access'
import { Footer } from './footer'
import { DeploymentNotice } from './deployment-notice'
import { usePeopleLive } from './people-live'
import { RightPanel, showTab, WIDE, type PanelContext } from './right-panel'
import { TopBar } from './top-bar'

// The Meet Up screen brings LiveKit's client: it loads once a Meet Up is joined.
const MeetupDock = lazy(() => import('@/features/meetups/room/meetup-dock').then((m) => ({ default: m.MeetupDock })))

/**
 * AppShell frames the authenticated pages: the top bar, the page, and the
 * right-side panel, with the one profile dialog; and it applies the live
 * community, organization, person, private chat, presence, notification, Meet Up and subscription events wherever
 * the user is, and tells them when a new version of the app is deployed.
 */
export function AppShell() {
  // The Meet Up stays connected while the member moves around the app.
  return (
    <MeetupRoomProvider>
      <Shell />
    </MeetupRoomProvider>
  )
}

function Shell() {
  const { t } = useTranslation()
  useAdminLive()
  useChatLive()
  usePersonalizationLive()
  usePresenceLive(useUnreadChats().isUnreadPeer)
  usePeopleLive()
  useNotificationsLive()
  useMeetingsLive()
  useSubscriptionsLive()
  const meetup = useMeetupRoom().active
  const pathname = useLocation({ select: (l) => l.pathname })
  const communities = useMyCommunities()
  const forumAccess = useForumAccess()
  const params = useParams({ strict: false }) as { seriesId?: string; communityId?: string }
  const forum = params.seriesId
    ? communities.data?.results.flatMap((c) => c.series.map((f) => ({ f, admin: manageable(c) || f.role === 'admin' }))).find((x) => x.f.id === params.seriesId)
    : undefined
  const panel: PanelContext = {
    beside: !(params.communityId && !params.seriesId),
    forumSelected: !!params.seriesId,
    forumAdmin: !!forum?.admin,
    forum: params.seriesId && params.communityId ? { seriesId: params.seriesId, communityId: params.communityId } : undefined,
    meetupActive: !!meetup,
  }
  // Joining a Meet Up opens the panel on its tab on wide screens (spec 002 §2).
  const joined = meetup?.meeting.roomId
  const beside = panel.beside
  useEffect(() => {
    if (joined && window.matchMedia(WIDE).matches) showTab('meetups', { beside })
  }, [joined, beside])
  return (
    <TooltipProvider delayDuration={300}>
      <ProfileDialogHost
        place={{ seriesId: params.seriesId, home: pathname === '/home' }}
        onMessage={(person) => {
          openChat(person)
          showTab('chat', panel)
        }}
      >
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50 focus:rounded-md focus:bg-background focus:px-3 focus:py-2"
        >
          {t('app.skipToContent')}
        </a>
        <TopBar panel={panel} />
        <div className="flex">
          <main id="main" className="min-w-0 flex-1">
            {meetup && (
              <Suspense fallback={null}>
                <MeetupDock seriesId={params.seriesId} />
              </Suspense>
            )}
            <Outlet />
          </main>
          <RightPanel context={panel} />
        </div>
        {!panel.beside && <Footer />}
        <DeploymentNotice />
        <MeetupReminder seriesId={params.seriesId} access={forumAccess} />
      </ProfileDialogHost>
    </TooltipProvider>
  )
}
