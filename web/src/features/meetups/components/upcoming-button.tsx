import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useQueryClient } from '@tanstack/react-query'
import { CalendarClock, CalendarX } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover'
import { Skeleton } from '@/components/ui/skeleton'
import { EmptyState, ErrorFallback } from '@/components/ui/states'
import { useMediaQuery } from '@/hooks/use-media-query'
import { personalizationQuery, usePersonalization, useUpdatePersonalization } from '@/lib/personalization'
import { useCurrentUser } from '@/lib/session-context'
import { useMeetings } from '../api/list-meetups'
import type { Meeting } from '../api/types'
import { MeetupSummary, type ForumAccess } from './meetup-summary'

/** The personalization key of the upcoming Meet Ups' seen time (spec 000 §3). */
export const MEETUPS_LAST_SEEN = 'notifications.meetups.lastSeenAt'

const WIDE = '(min-width: 768px)'

/** hasNew: a Meet Up in the list was scheduled after the list was last seen. */
export function hasNew(list: Meeting[], lastSeenAt: unknown): boolean {
  const seen = typeof lastSeenAt === 'string' ? Date.parse(lastSeenAt) : NaN
  return list.some((m) => Number.isNaN(seen) || Date.parse(m.createdOn) > seen)
}

/**
 * UpcomingMeetupsButton is the top bar's upcoming Meet Ups button (spec 000
 * §2.2) with its new-Meet-Up dot; it opens the list as a popover on wide
 * screens and a full-screen dialog on small ones. Closing the list marks it
 * seen (notifications.meetups.lastSeenAt), as the bell does its own. A Meet
 * Up of a forum the member has no access to (access) offers Subscribe.
 */
export function UpcomingMeetupsButton({ access }: { access?: ForumAccess }) {
  const { t } = useTranslation()
  const userId = useCurrentUser()?.user.id ?? ''
  const qc = useQueryClient()
  const wide = useMediaQuery(WIDE)
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
  const onOpenChange = (o: boolean) => (o ? setOpen(true) : close())
  const button = (
    <Button variant="ghost" size="icon" className="relative" aria-label={t('meetups.upcoming.open')} data-testid="upcoming-meetups" onClick={wide ? undefined : () => setOpen(true)}>
      <CalendarClock aria-hidden />
      {fresh && <span role="img" aria-label={t('meetups.upcoming.new')} className="absolute right-1.5 top-1.5 size-2.5 rounded-full bg-red-500" />}
    </Button>
  )
  const body = open && <UpcomingList onGo={close} access={access} />
  if (wide)
    return (
      <Popover open={open} onOpenChange={onOpenChange}>
        <PopoverTrigger asChild>{button}</PopoverTrigger>
        <PopoverContent align="end" className="flex max-h-[min(36rem,80vh)] w-96 flex-col p-0" aria-label={t('meetups.upcoming.title')}>
          <h2 className="border-b px-4 py-3 text-sm font-semibold">{t('meetups.upcoming.title')}</h2>
          {body}
        </PopoverContent>
      </Popover>
    )
  return (
    <>
      {button}
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogContent className="flex h-dvh max-w-none flex-col gap-0 rounded-none border-0 p-0">
          <DialogTitle className="border-b px-4 py-3 text-base">{t('meetups.upcoming.title')}</DialogTitle>
          <DialogDescription className="sr-only">{t('meetups.upcoming.description')}</DialogDescription>
          {body}
        </DialogContent>
      </Dialog>
    </>
  )
}

function UpcomingList({ onGo, access }: { onGo: () => void; access?: ForumAccess }) {
  const { t } = useTranslation()
  const list = useMeetings()
  if (list.isPending)
    return (
      <div aria-busy="true" aria-label={t('meetups.upcoming.title')} className="grid gap-3 p-4">
        <Skeleton className="h-10" />
        <Skeleton className="h-10" />
      </div>
    )
  if (list.isError) return <ErrorFallback message={t('meetups.upcoming.failed')} onRetry={() => void list.refetch()} />
  if (list.data.results.length === 0) return <EmptyState icon={<CalendarX />}>{t('meetups.upcoming.empty')}</EmptyState>
  return (
    <ul className="min-h-0 flex-1 divide-y overflow-y-auto" aria-label={t('meetups.upcoming.title')} data-testid="upcoming-list">
      {list.data.results.map((m) => (
        <li key={m.roomId} className="px-4 py-3">
          <MeetupSummary meeting={m} onGo={onGo} subscribe={access?.(m.seriesId) === false} />
        </li>
      ))}
    </ul>
  )
}
