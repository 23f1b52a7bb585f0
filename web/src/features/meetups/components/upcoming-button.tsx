import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useQueryClient } from '@tanstack/react-query'
import { CalendarClock, CalendarX } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover'
import { Skeleton } from '@/components/ui/skeleton'
import { Tip } from '@/components/ui/tooltip'
import { EmptyState, ErrorFallback } from '@/components/ui/states'
import { useMediaQuery } from '@/hooks/use-media-query'
import { personalizationQuery, usePersonalization, useUpdatePersonalization } from '@/lib/personalization'
import { useCurrentUser } from '@/lib/session-context'
import { cn } from '@/lib/utils'
import { useMeetings } from '../api/list-meetups'
import type { Meeting } from '../api/types'
import { useNotOver } from '../hooks/use-clock'
import { MeetupSummary, type ForumAccess } from './meetup-summary'

/** The personalization key of the upcoming Meet Ups' seen time (spec 000 §3). */
export const MEETUPS_LAST_SEEN = 'notifications.meetups.lastSeenAt'

const WIDE = '(min-width: 768px)'

/** hasNew: a Meet Up in the list was scheduled after the list was last seen. */
export function hasNew(list: Meeting[], lastSeenAt: unknown): boolean {
  const seen = typeof lastSeenAt === 'string' ? Date.parse(lastSeenAt) : NaN
  return list.some((m) => Number.isNaN(seen) || Date.parse(m.createdOn) > seen)
}

/** UpcomingMeetups is the upcoming Meet Ups list's state: its new-Meet-Up dot, and whether the list is open. */
export type UpcomingMeetups = { fresh: boolean; open: boolean; onOpenChange: (open: boolean) => void }

/**
 * useUpcomingMeetups is the state of the upcoming Meet Ups list (spec 000
 * §2.2): fresh while a Meet Up in it was scheduled after the list was last
 * seen; closing the list marks it seen (notifications.meetups.lastSeenAt),
 * as the bell does its own. The top bar's button holds it, or on small
 * screens the top bar's menu, whose entry opens the list.
 */
export function useUpcomingMeetups(): UpcomingMeetups {
  const userId = useCurrentUser()?.user.id ?? ''
  const qc = useQueryClient()
  const [open, setOpen] = useState(false)
  const list = useMeetings(undefined, !!userId)
  const personalization = usePersonalization()
  const update = useUpdatePersonalization(userId)
  const fresh = !!personalization.data && hasNew(list.data?.results ?? [], personalization.data[MEETUPS_LAST_SEEN])
  const close = () => {
    setOpen(false)
    void qc.ensureQueryData(personalizationQuery(userId)).then(
      () => update.mutate({ [MEETUPS_LAST_SEEN]: new Date().toISOString() }),
      (e: unknown) => console.warn('upcoming Meet Ups: the personalization could not be read', e),
    )
  }
  return { fresh, open, onOpenChange: (o: boolean) => (o ? setOpen(true) : close()) }
}

/** NewMeetupsDot is the new-Meet-Up dot, on the button or on the entry that opens the list. */
export function NewMeetupsDot({ className }: { className?: string }) {
  const { t } = useTranslation()
  return <span role="img" aria-label={t('meetups.upcoming.new')} className={cn('size-2.5 shrink-0 rounded-full bg-red-500', className)} />
}

/**
 * UpcomingMeetupsButton is the top bar's upcoming Meet Ups button (spec 000
 * §2.2) with its new-Meet-Up dot and its tooltip; it opens the list as a
 * popover on wide screens and a full-screen dialog on small ones. A Meet Up
 * of a forum the member has no access to (access) offers Subscribe.
 */
export function UpcomingMeetupsButton({ access }: { access?: ForumAccess }) {
  const { t } = useTranslation()
  const wide = useMediaQuery(WIDE)
  const state = useUpcomingMeetups()
  const button = (
    <Button
      variant="ghost"
      size="icon"
      className="relative"
      aria-label={t('meetups.upcoming.open')}
      data-testid="upcoming-meetups"
      onClick={wide ? undefined : () => state.onOpenChange(true)}
    >
      <CalendarClock aria-hidden />
      {state.fresh && <NewMeetupsDot className="absolute right-1.5 top-1.5" />}
    </Button>
  )
  if (wide)
    return (
      <Popover open={state.open} onOpenChange={state.onOpenChange}>
        <Tip label={t('meetups.upcoming.open')}>
          <PopoverTrigger asChild>{button}</PopoverTrigger>
        </Tip>
        <PopoverContent align="end" className="flex max-h-[min(36rem,80vh)] w-96 flex-col p-0" aria-label={t('meetups.upcoming.title')}>
          <h2 className="border-b px-4 py-3 text-sm font-semibold">{t('meetups.upcoming.title')}</h2>
          {state.open && <UpcomingList onGo={() => state.onOpenChange(false)} access={access} />}
        </PopoverContent>
      </Popover>
    )
  return (
    <>
      <Tip label={t('meetups.upcoming.open')}>{button}</Tip>
      <UpcomingMeetupsDialog state={state} access={access} />
    </>
  )
}

/** UpcomingMeetupsDialog is the list as the small screens' full-screen dialog, opened by the button or the top bar's menu. */
export function UpcomingMeetupsDialog({ state, access }: { state: UpcomingMeetups; access?: ForumAccess }) {
  const { t } = useTranslation()
  return (
    <Dialog open={state.open} onOpenChange={state.onOpenChange}>
      <DialogContent className="flex h-dvh max-w-none flex-col gap-0 rounded-none border-0 p-0">
        <DialogTitle className="border-b px-4 py-3 text-base">{t('meetups.upcoming.title')}</DialogTitle>
        <DialogDescription className="sr-only">{t('meetups.upcoming.description')}</DialogDescription>
        {state.open && <UpcomingList onGo={() => state.onOpenChange(false)} access={access} />}
      </DialogContent>
    </Dialog>
  )
}

function UpcomingList({ onGo, access }: { onGo: () => void; access?: ForumAccess }) {
  const { t } = useTranslation()
  const list = useMeetings()
  const coming = useNotOver(list.data?.results ?? [])
  if (list.isPending)
    return (
      <div aria-busy="true" aria-label={t('meetups.upcoming.title')} className="grid gap-3 p-4">
        <Skeleton className="h-10" />
        <Skeleton className="h-10" />
      </div>
    )
  if (list.isError) return <ErrorFallback message={t('meetups.upcoming.failed')} onRetry={() => void list.refetch()} />
  if (coming.length === 0) return <EmptyState icon={<CalendarX />}>{t('meetups.upcoming.empty')}</EmptyState>
  return (
    <ul className="min-h-0 flex-1 divide-y overflow-y-auto" aria-label={t('meetups.upcoming.title')} data-testid="upcoming-list">
      {coming.map((m) => (
        <li key={m.roomId} className="px-4 py-3">
          <MeetupSummary meeting={m} onGo={onGo} subscribe={access?.(m.seriesId) === false} />
        </li>
      ))}
    </ul>
  )
}
