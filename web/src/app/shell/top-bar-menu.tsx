import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from '@tanstack/react-router'
import { CalendarClock, CreditCard, Home, Menu } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu'
import { Tip } from '@/components/ui/tooltip'
import { ManageCommunitiesDialog } from '@/features/communities/components/manage-communities-dialog'
import type { ForumAccess } from '@/features/meetups/components/meetup-summary'
import { NewMeetupsDot, UpcomingMeetupsDialog, useUpcomingMeetups } from '@/features/meetups/components/upcoming-button'
import { AccountHeader, AccountItems } from './account-menu'
import { ManageItems, useManageEntries } from './manage-menu'
import { useShowSubscriptions } from './subscriptions-link'

/**
 * TopBarMenu is the small screens' top bar menu: what does not fit beside
 * the forum's title, the bell and the chat at 390 px, each entry with its
 * name. Home, Subscriptions (for those shown it), the upcoming Meet Ups
 * (the full-screen list, its new-Meet-Up dot on the entry and on the menu's
 * button), the Manage entries (for those who manage something), then the
 * avatar menu's Profile, theme and Sign out.
 */
export function TopBarMenu({ access }: { access?: ForumAccess }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const upcoming = useUpcomingMeetups()
  const manage = useManageEntries()
  const subscriptions = useShowSubscriptions()
  const [managing, setManaging] = useState(false)
  return (
    <>
      {/* Not modal: the page behind is not hidden from assistive technology
          while its controls stay focusable, and an entry may open a dialog. */}
      <DropdownMenu modal={false}>
        <Tip label={t('nav.menu')}>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon" className="relative" aria-label={t('nav.menu')} data-testid="top-bar-menu">
              <Menu aria-hidden />
              {upcoming.fresh && <NewMeetupsDot className="absolute right-1.5 top-1.5" />}
            </Button>
          </DropdownMenuTrigger>
        </Tip>
        <DropdownMenuContent align="end" className="w-64" data-testid="top-bar-menu-content">
          <AccountHeader />
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => void navigate({ to: '/home' })}>
            <Home aria-hidden />
            {t('nav.home')}
          </DropdownMenuItem>
          {subscriptions && (
            <DropdownMenuItem onSelect={() => void navigate({ to: '/subscriptions' })} data-testid="subscriptions-link">
              <CreditCard aria-hidden />
              {t('subscriptions.nav')}
            </DropdownMenuItem>
          )}
          <DropdownMenuItem onSelect={() => upcoming.onOpenChange(true)} data-testid="upcoming-meetups">
            <CalendarClock aria-hidden />
            {t('meetups.upcoming.open')}
            {upcoming.fresh && <NewMeetupsDot className="ml-auto" />}
          </DropdownMenuItem>
          {manage.length > 0 && (
            <>
              <DropdownMenuSeparator />
              <DropdownMenuLabel className="text-xs text-muted-foreground">{t('nav.manage')}</DropdownMenuLabel>
              <ManageItems entries={manage} onCommunities={() => setManaging(true)} />
            </>
          )}
          <DropdownMenuSeparator />
          <AccountItems />
        </DropdownMenuContent>
      </DropdownMenu>
      <UpcomingMeetupsDialog state={upcoming} access={access} />
      {manage.includes('communities') && <ManageCommunitiesDialog open={managing} onOpenChange={setManaging} />}
    </>
  )
}
