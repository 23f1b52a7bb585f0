import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from '@tanstack/react-router'
import { BarChart3, Home, LogOut, MessageCircle, PanelRight, User as UserIcon, Users } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { PersonAvatar } from '@/components/ui/avatar'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet'
import { useSignOut } from '@/features/auth/hooks/use-sign-out'
import { useUnreadChats } from '@/features/chat/components/chat-panel'
import { NewMessageBubble } from '@/features/chat/components/new-message-bubble'
import { UnreadDot } from '@/features/chat/components/presence-dot'
import { UpcomingMeetupsButton } from '@/features/meetups/components/upcoming-button'
import { NotificationsBell } from '@/features/notifications/components/notifications-bell'
import { useMediaQuery } from '@/hooks/use-media-query'
import { useCurrentUser } from '@/lib/session-context'
import { cn } from '@/lib/utils'
import { setTheme, useTheme, type Theme } from '@/lib/theme'
import { useForumAccess } from './forum-access'
import { ManageMenu } from './manage-menu'
import { SubscriptionsLink } from './subscriptions-link'
import { availableTabs, PanelBody, setPanel, setSheetOpen, shownTab, showTab, usePanel, useSheetOpen, WIDE, type PanelContext, type PanelTab } from './right-panel'

/**
 * TopBar (spec 000 §2.2): Home, Subscriptions (for those who have or
 * could have one), the Manage menu (for those who manage something), the upcoming Meet Ups button with its new-Meet-Up dot, the
 * notifications bell with its unread dot and the avatar
 * menu; on small screens the chat button with its unread dot and, where the
 * side panel has a forum's tabs (Team, and Insights for its admins), the
 * panel menu. The new-message bubble shows while the panel is closed.
 */
export function TopBar({ panel }: { panel: PanelContext }) {
  const { t } = useTranslation()
  const me = useCurrentUser()
  const signOut = useSignOut()
  const navigate = useNavigate()
  const theme = useTheme()
  const sheetOpen = useSheetOpen()
  const panelState = usePanel()
  const tabs = availableTabs(panel)
  const tab = shownTab(tabs, panelState.tab)
  const openSheet = (k: PanelTab) => {
    setPanel({ tab: k })
    setSheetOpen(true)
  }
  const wide = useMediaQuery(WIDE)
  const { unread } = useUnreadChats()
  const forumAccess = useForumAccess()

  return (
    <header className="sticky top-0 z-40 flex h-14 items-center gap-1 border-b bg-background/95 px-3 backdrop-blur sm:px-4">
      <Link to="/home" className="mr-2 flex items-center gap-2 font-semibold">
        <img src="/favicon.svg" alt="" className="size-7" />
        <span className="sr-only sm:not-sr-only">Agora</span>
      </Link>
      <nav aria-label="Main" className="flex items-center gap-1">
        <Button asChild variant="ghost" size="sm">
          <Link to="/home" activeProps={{ 'aria-current': 'page', className: 'bg-accent text-accent-foreground' }}>
            <Home aria-hidden />
            <span className="sr-only sm:not-sr-only">{t('nav.home')}</span>
          </Link>
        </Button>
        {me && <SubscriptionsLink />}
        <ManageMenu />
      </nav>
      <div className="ml-auto flex items-center gap-0.5">
        {me && <UpcomingMeetupsButton access={forumAccess} />}
        {me && <NotificationsBell />}
        <Button variant="ghost" size="icon" className={cn('relative', panel.beside && 'md:hidden')} aria-label={t('chat.open')} onClick={() => openSheet('chat')} data-testid="chat-button">
          <MessageCircle aria-hidden />
          {unread.length > 0 && <UnreadDot className="absolute right-1.5 top-1.5" />}
        </Button>
        {/* The chat has its own button; the menu holds the forum's tabs. */}
        {(tabs.includes('insights') || tabs.includes('team')) && (
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="icon" className="md:hidden" aria-label={t('nav.panelMenu')}>
                <PanelRight aria-hidden />
              </Button>
            </DropdownMenuTrigger>
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
        {me && (
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="icon" className="rounded-full" aria-label={t('nav.account')} data-testid="avatar-menu">
                <PersonAvatar person={me.user} className="size-8" />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end" className="w-56">
              <DropdownMenuLabel className="font-normal">
                <p className="truncate text-sm font-medium">
                  {me.user.firstName} {me.user.lastName}
                </p>
                <p className="truncate text-xs text-muted-foreground">{me.user.email}</p>
              </DropdownMenuLabel>
              <DropdownMenuSeparator />
              <DropdownMenuItem onSelect={() => void navigate({ to: '/profile' })}>
                <UserIcon aria-hidden />
                {t('nav.profile')}
              </DropdownMenuItem>
              <DropdownMenuSeparator />
              <DropdownMenuLabel className="text-xs text-muted-foreground">{t('nav.theme')}</DropdownMenuLabel>
              <DropdownMenuRadioGroup value={theme} onValueChange={(v) => setTheme(v as Theme)}>
                <DropdownMenuRadioItem value="light">{t('nav.light')}</DropdownMenuRadioItem>
                <DropdownMenuRadioItem value="dark">{t('nav.dark')}</DropdownMenuRadioItem>
                <DropdownMenuRadioItem value="system">{t('nav.system')}</DropdownMenuRadioItem>
              </DropdownMenuRadioGroup>
              <DropdownMenuSeparator />
              <DropdownMenuItem onSelect={() => void signOut()} data-testid="sign-out">
                <LogOut aria-hidden />
                {t('nav.signOut')}
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        )}
      </div>
      {me && <NewMessageBubble panelOpen={sheetOpen || (wide && panel.beside && panelState.expanded)} onView={() => showTab('chat', panel)} />}
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
  )
}
