import { useTranslation } from 'react-i18next'
import { Link } from '@tanstack/react-router'
import { BarChart3, Home, MessageCircle, PanelRight, Users } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { PersonAvatar } from '@/components/ui/avatar'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu'
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet'
import { Tip } from '@/components/ui/tooltip'
import { useUnreadChats } from '@/features/chat/components/chat-panel'
import { NewMessageBubble } from '@/features/chat/components/new-message-bubble'
import { UnreadDot } from '@/features/chat/components/presence-dot'
import { UpcomingMeetupsButton } from '@/features/meetups/components/upcoming-button'
import { NotificationsBell } from '@/features/notifications/components/notifications-bell'
import { useMediaQuery } from '@/hooks/use-media-query'
import { useCurrentUser } from '@/lib/session-context'
import { cn } from '@/lib/utils'
import { AccountHeader, AccountItems } from './account-menu'
import { useForumAccess } from './forum-access'
import { ForumSwitcher } from './forum-switcher'
import { ManageMenu } from './manage-menu'
import { SubscriptionsLink } from './subscriptions-link'
import { TopBarMenu } from './top-bar-menu'
import { availableTabs, PanelBody, setPanel, setSheetOpen, shownTab, showTab, usePanel, useSheetOpen, WIDE, type PanelContext, type PanelTab } from './right-panel'

/** SIDE_NAV is where the forum page shows its side nav; below it the top bar has the forum switcher. */
const SIDE_NAV = '(min-width: 1024px)'

/**
 * TopBar (spec 000 §2.2): Home, Subscriptions (for those who have or
 * could have one), the Manage menu (for those who manage something), the upcoming Meet Ups button with its new-Meet-Up dot, the
 * notifications bell with its unread dot and the avatar
 * menu; on small screens the chat button with its unread dot and, where the
 * side panel has a forum's tabs (Team, and Insights for its admins), the
 * panel menu. The new-message bubble shows while the panel is closed.
 *
 * On a phone the bar keeps what fits at 390 px: the forum's title (the
 * forum switcher), the bell, the chat, the panel menu and a menu holding
 * the rest by name (TopBarMenu). Every button that shows only an icon has
 * its name as a tooltip and as its accessible name. Where the forum page
 * has no side nav (below 1024 px), the forum's title switches forums.
 */
export function TopBar({ panel }: { panel: PanelContext }) {
  const { t } = useTranslation()
  const me = useCurrentUser()
  const sheetOpen = useSheetOpen()
  const panelState = usePanel()
  const tabs = availableTabs(panel)
  const tab = shownTab(tabs, panelState.tab)
  const openSheet = (k: PanelTab) => {
    setPanel({ tab: k })
    setSheetOpen(true)
  }
  const wide = useMediaQuery(WIDE)
  const sideNav = useMediaQuery(SIDE_NAV)
  const { unread } = useUnreadChats()
  const forumAccess = useForumAccess()
  const switcher = !sideNav && me ? panel.forum?.seriesId : undefined
  // On a phone the forum's title takes the brand's room.
  const brandHidden = !wide && !!switcher
  const brand = (
    <Link to="/home" className="mr-1 flex shrink-0 items-center gap-2 font-semibold">
      <img src="/favicon.svg" alt="" className="size-7" />
      <span className={cn(brandHidden && 'sr-only')}>{t('app.name')}</span>
    </Link>
  )

  return (
    <>
      <header className="sticky top-0 z-40 flex h-14 items-center gap-1 border-b bg-background/95 px-3 backdrop-blur sm:px-4" data-testid="top-bar">
        {brandHidden ? <Tip label={t('app.name')}>{brand}</Tip> : brand}
        {wide && (
          <nav aria-label="Main" className="flex shrink-0 items-center gap-1">
            <Button asChild variant="ghost" size="sm">
              <Link to="/home" activeProps={{ 'aria-current': 'page', className: 'bg-accent text-accent-foreground' }}>
                <Home aria-hidden />
                <span>{t('nav.home')}</span>
              </Link>
            </Button>
            {me && <SubscriptionsLink />}
            <ManageMenu />
          </nav>
        )}
        {switcher && (
          <div className="flex min-w-0 flex-1">
            <ForumSwitcher seriesId={switcher} />
          </div>
        )}
        <div className="ml-auto flex shrink-0 items-center gap-0.5">
          {me && wide && <UpcomingMeetupsButton access={forumAccess} />}
          {me && <NotificationsBell />}
          <Tip label={t('chat.open')}>
            <Button variant="ghost" size="icon" className={cn('relative', panel.beside && 'md:hidden')} aria-label={t('chat.open')} onClick={() => openSheet('chat')} data-testid="chat-button">
              <MessageCircle aria-hidden />
              {unread.length > 0 && <UnreadDot className="absolute right-1.5 top-1.5" />}
            </Button>
          </Tip>
          {/* The chat has its own button; the menu holds the forum's tabs. */}
          {(tabs.includes('insights') || tabs.includes('team')) && (
            <DropdownMenu>
              <Tip label={t('nav.panelMenu')}>
                <DropdownMenuTrigger asChild>
                  <Button variant="ghost" size="icon" className="md:hidden" aria-label={t('nav.panelMenu')}>
                    <PanelRight aria-hidden />
                  </Button>
                </DropdownMenuTrigger>
              </Tip>
              <DropdownMenuContent align="end">
                {tabs.includes('insights') && (
                  <DropdownMenuItem onSelect={() => openSheet('insights')}>
                    <BarChart3 aria-hidden />
                    {t('nav.insights')}
                  </DropdownMenuItem>
                )}
                {tabs.includes('team') && (
                  <DropdownMenuItem onSelect={() => openSheet('team')}>
                    <Users aria-hidden />
                    {t('nav.team')}
                  </DropdownMenuItem>
                )}
              </DropdownMenuContent>
            </DropdownMenu>
          )}
          {me && !wide && <TopBarMenu access={forumAccess} />}
          {me && wide && (
            <DropdownMenu>
              <Tip label={t('nav.account')}>
                <DropdownMenuTrigger asChild>
                  <Button variant="ghost" size="icon" className="rounded-full" aria-label={t('nav.account')} data-testid="avatar-menu">
                    <PersonAvatar person={me.user} className="size-8" />
                  </Button>
                </DropdownMenuTrigger>
              </Tip>
              <DropdownMenuContent align="end" className="w-56">
                <AccountHeader />
                <DropdownMenuSeparator />
                <AccountItems />
              </DropdownMenuContent>
            </DropdownMenu>
          )}
        </div>
        {tab && (
          <Sheet open={sheetOpen} onOpenChange={setSheetOpen}>
            <SheetContent side="right" className="p-0 pt-10">
              <SheetTitle className="sr-only">{t('panel.label')}</SheetTitle>
              <SheetDescription className="sr-only">{t('panel.label')}</SheetDescription>
              <PanelBody tabs={tabs} tab={tab} context={panel} />
            </SheetContent>
          </Sheet>
        )}
      </header>
      {/* Outside the header: its backdrop filter would make the bubble's
          fixed place the header's corner, over the top bar's buttons. */}
      {me && <NewMessageBubble panelOpen={sheetOpen || (wide && panel.beside && panelState.expanded)} onView={() => showTab('chat', panel)} />}
    </>
  )
}
