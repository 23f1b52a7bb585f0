import { lazy, Suspense, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { BarChart3, ChevronLeft, ChevronRight, Maximize2, MessageCircle, Minimize2, Users, Video } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { Tip } from '@/components/ui/tooltip'
import { memoryStore } from '@/lib/memory-store'
import { persistedStore } from '@/lib/persisted-store'
import { cn } from '@/lib/utils'
import { ChatPanel, useUnreadChats } from '@/features/chat/components/chat-panel'
import { UnreadDot } from '@/features/chat/components/presence-dot'
import { InsightsSummaryStats } from '@/features/insights/components/summary-stats'
import { DoNotDisturbToggle } from '@/features/presence/components/do-not-disturb'
import { PEERS_KEY } from '@/features/presence/peers-cache'
import { RowsSkeleton } from '@/features/insights/components/widget'
import { TeamAvatars, TeamTab } from '@/features/profile/components/team-tab'

// The Insights tab brings the charts library: it loads when first opened,
// not with every page.
// The meetups tab, with LiveKit's client, loads once a Meet Up is joined.
const MeetupPanel = lazy(() => import('@/features/meetups/room/meetup-panel').then((m) => ({ default: m.MeetupPanel })))
const InsightsTab = lazy(() => import('./insights-tab').then((m) => ({ default: m.InsightsTab })))

// The right-side panel (spec 002 §2): docked (a 70 px icon column) or
// expanded (390 px); on wide screens a tab may fill the screen. Its state is
// a UI setting kept in localStorage, so it survives sign-out. The meetups
// tab is offered only while the member is in a Meet Up.

export type PanelTab = 'chat' | 'meetups' | 'insights' | 'team'
type PanelState = { expanded: boolean; tab: PanelTab; fullscreen: boolean }
const DEFAULT_PANEL: PanelState = { expanded: false, tab: 'chat', fullscreen: false }
const panelStore = persistedStore<PanelState>('agora.panel', {
  fallback: DEFAULT_PANEL,
  parse: (raw) => ({ ...DEFAULT_PANEL, ...(JSON.parse(raw) as Partial<PanelState>) }),
  format: JSON.stringify,
})

/** setPanel changes and keeps part of the panel's state. */
export function setPanel(p: Partial<PanelState>) {
  panelStore.set({ ...panelStore.get(), ...p })
}

/** usePanel is the panel's kept state, followed. */
export const usePanel: () => PanelState = panelStore.use

// The small screens' sheet shows the panel over the page; it is open for
// this page view only, not kept with the panel's state.
const sheet = memoryStore(false)
export const setSheetOpen = sheet.set
export const useSheetOpen = sheet.use

/** WIDE is where the panel sits beside the page; below it the panel is a sheet. */
export const WIDE = '(min-width: 768px)'

/** showTab opens the panel on a tab: expanded beside the page on wide screens of a page that has it, else the sheet. */
export function showTab(tab: PanelTab, { beside }: Pick<PanelContext, 'beside'>) {
  if (beside && window.matchMedia(WIDE).matches) return setPanel({ expanded: true, tab })
  setPanel({ tab })
  setSheetOpen(true)
}

export type PanelContext = {
  /** Whether the page has the panel beside it on wide screens (community pages have a footer instead, spec 000 §2.1). */
  beside: boolean
  forumSelected: boolean
  forumAdmin: boolean
  /** The forum of the page, for the tabs about it (insights, team). */
  forum?: { seriesId: string; communityId: string }
  /** The member is in a Meet Up (the meetups tab). */
  meetupActive?: boolean
}

/** The tabs that may fill a wide screen (spec 002 §2). */
const FULLSCREEN_TABS: PanelTab[] = ['meetups', 'insights', 'team']

/** availableTabs: chat always; meetups while in a Meet Up; in a forum, team for every member and insights for its admins. */
export function availableTabs({ forumSelected, forumAdmin, meetupActive }: Pick<PanelContext, 'forumSelected' | 'forumAdmin' | 'meetupActive'>): PanelTab[] {
  const first: PanelTab[] = meetupActive ? ['chat', 'meetups'] : ['chat']
  if (!forumSelected) return first
  return forumAdmin ? [...first, 'insights', 'team'] : [...first, 'team']
}

/** shownTab is the stored tab when it is offered, else the first offered one. */
export const shownTab = (tabs: PanelTab[], stored: PanelTab): PanelTab | undefined => (tabs.includes(stored) ? stored : tabs[0])

const icons: Record<PanelTab, ReactNode> = {
  chat: <MessageCircle aria-hidden />,
  meetups: <Video aria-hidden />,
  insights: <BarChart3 aria-hidden />,
  team: <Users aria-hidden />,
}

/** RightPanel is the docked or expanded panel of large screens, absent when it has no tab. */
export function RightPanel({ context }: { context: PanelContext }) {
  const { t } = useTranslation()
  const panel = usePanel()
  const { unread } = useUnreadChats()
  const tabs = availableTabs(context)
  const tab = shownTab(tabs, panel.tab)
  if (!tab || !context.beside) return null

  if (!panel.expanded) {
    return (
      <aside aria-label={t('panel.label')} className="sticky top-14 hidden h-[calc(100dvh-3.5rem)] w-[70px] shrink-0 flex-col items-center gap-2 border-l bg-background py-3 md:flex" data-testid="right-panel" data-state="docked">
        <Tip label={t('panel.expand')} side="left">
          <Button variant="ghost" size="icon" aria-label={t('panel.expand')} onClick={() => setPanel({ expanded: true })}>
            <ChevronLeft aria-hidden />
          </Button>
        </Tip>
        <div className="my-1 h-px w-8 bg-border" />
        {tabs.map((k) => (
          <Tip key={k} label={t(`panel.${k}`)} side="left">
            <Button variant={k === tab ? 'secondary' : 'ghost'} size="icon" className="relative" aria-label={t(`panel.${k}`)} onClick={() => setPanel({ expanded: true, tab: k })}>
              {icons[k]}
              {k === 'chat' && unread.length > 0 && <UnreadDot className="absolute right-1 top-1" />}
            </Button>
          </Tip>
        ))}
        {tabs.includes('insights') && context.forum && (
          <>
            <div className="my-1 h-px w-8 bg-border" />
            <InsightsSummaryStats seriesId={context.forum.seriesId} />
          </>
        )}
        {tab === 'team' && context.forum && (
          <>
            <div className="my-1 h-px w-8 bg-border" />
            <TeamAvatars seriesId={context.forum.seriesId} />
          </>
        )}
      </aside>
    )
  }
  // Full screen covers the page below the top bar, on wide screens only.
  const fullscreen = panel.fullscreen && FULLSCREEN_TABS.includes(tab)
  return (
    <aside
      aria-label={t('panel.label')}
      className={cn(
        'sticky top-14 hidden h-[calc(100dvh-3.5rem)] w-[390px] shrink-0 flex-col border-l bg-background md:flex',
        fullscreen && 'lg:fixed lg:inset-x-0 lg:bottom-0 lg:top-14 lg:z-30 lg:h-auto lg:w-auto lg:border-l-0',
      )}
      data-testid="right-panel"
      data-state={fullscreen ? 'fullscreen' : 'expanded'}
    >
      <PanelBody tabs={tabs} tab={tab} context={context} onCollapse={() => setPanel({ expanded: false, fullscreen: false })} fullscreen={fullscreen} />
    </aside>
  )
}

/**
 * PanelBody is the expanded panel's content, also shown in the small-screen
 * sheet. With onCollapse (the wide panel) it offers full screen on wide
 * screens for the tabs that allow it.
 */
export function PanelBody({
  tabs,
  tab,
  context,
  onCollapse,
  fullscreen = false,
}: {
  tabs: PanelTab[]
  tab: PanelTab
  context?: PanelContext
  onCollapse?: () => void
  fullscreen?: boolean
}) {
  const { t } = useTranslation()
  const forum = context?.forum
  return (
    <Tabs value={tab} onValueChange={(v) => setPanel({ tab: v as PanelTab })} className="flex min-h-0 flex-1 flex-col">
      <div className="flex items-center gap-2 border-b px-3 py-2">
        {onCollapse && (
          <Button variant="ghost" size="icon" aria-label={t('panel.collapse')} onClick={onCollapse}>
            <ChevronRight aria-hidden />
          </Button>
        )}
        <TabsList>
          {tabs.map((k) => (
            <TabsTrigger key={k} value={k}>
              {t(`panel.${k}`)}
            </TabsTrigger>
          ))}
        </TabsList>
        {onCollapse && FULLSCREEN_TABS.includes(tab) && (
          <Tip label={t(fullscreen ? 'panel.exitFullscreen' : 'panel.fullscreen')} side="left">
            <Button
              variant="ghost"
              size="icon"
              className="ml-auto hidden lg:inline-flex"
              aria-label={t('panel.fullscreen')}
              aria-pressed={fullscreen}
              onClick={() => setPanel({ fullscreen: !fullscreen })}
              data-testid="panel-fullscreen"
            >
              {fullscreen ? <Minimize2 aria-hidden /> : <Maximize2 aria-hidden />}
            </Button>
          </Tip>
        )}
      </div>
      <TabsContent value="chat" className="mt-0 flex min-h-0 flex-1 flex-col data-[state=inactive]:hidden">
        <ChatPanel peersKey={PEERS_KEY} meControls={<DoNotDisturbToggle />} />
      </TabsContent>
      <TabsContent value="meetups" className="mt-0 min-h-0 flex-1 overflow-y-auto p-4">
        {tabs.includes('meetups') && (
          <Suspense fallback={<RowsSkeleton />}>
            <MeetupPanel fullscreen={fullscreen} />
          </Suspense>
        )}
      </TabsContent>
      <TabsContent value="insights" className="mt-0 min-h-0 flex-1 overflow-y-auto p-4">
        {forum && (
          <Suspense fallback={<RowsSkeleton />}>
            <InsightsTab seriesId={forum.seriesId} communityId={forum.communityId} />
          </Suspense>
        )}
      </TabsContent>
      <TabsContent value="team" className="mt-0 min-h-0 flex-1 overflow-y-auto p-4">
        {forum && <TeamTab seriesId={forum.seriesId} fullscreen={fullscreen} />}
      </TabsContent>
    </Tabs>
  )
}
