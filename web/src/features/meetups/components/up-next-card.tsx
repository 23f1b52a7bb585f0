import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Pencil, Trash2 } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { useCurrentUser } from '@/lib/session-context'
import { cn } from '@/lib/utils'
import { useMeetings } from '../api/list-meetups'
import { useClock } from '../hooks/use-clock'
import { DeleteMeetupDialog } from './delete-meetup-dialog'
import type { Meeting } from '../api/types'
import { canJoinYet, GRACE_MINUTES, isOver, timeFrame } from '../lib/time'
import { useMeetupRoom } from '../room/context'
import { JoinButton } from './join-button'
import { MeetupFormDialog } from './meetup-form-dialog'
import { MeetupSummary } from './meetup-summary'

const MIN = 60_000

/** When the card changes for m: its join window opens, it starts, it ends. */
const turns = (m: Meeting) => {
  const start = Date.parse(m.startTime)
  return [start - GRACE_MINUTES * MIN, start, Date.parse(m.endTime)]
}

/**
 * UpNextCard is a forum's next Meet Up (spec 002 §2): 'Up next', its name,
 * time frame and details; Edit and Delete for its creator only, not while
 * in it; 'View more' listing them all when two or more are upcoming.
 * Once the Meet Up has started it says it is live now, and from 10 minutes
 * before the start (spec 002 §4) it offers Join to those who may join; an
 * ended one is never up next, so the card moves on to the following one as
 * the Meet Up ends, or goes when none follows.
 */
export function UpNextCard({ series }: { series: { id: string; name: string; role: 'admin' | 'member' } }) {
  const { t } = useTranslation()
  const me = useCurrentUser()?.user.id
  const list = useMeetings(series.id)
  const room = useMeetupRoom()
  const [details, setDetails] = useState(false)
  const [more, setMore] = useState(false)
  const [editing, setEditing] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const listed = list.data?.results ?? []
  const now = useClock(listed.flatMap(turns))
  const all = listed.filter((m) => !isOver(m, now))
  const next: Meeting | undefined = all[0]
  if (!next) return null
  const { start, end } = timeFrame(next)
  const live = now >= Date.parse(next.startTime)
  const inIt = room.active?.meeting.roomId === next.roomId
  return (
    <section className="mb-4 grid gap-2 rounded-lg border bg-card p-4" aria-labelledby="up-next-title" data-testid="up-next" data-live={live || undefined}>
      <div className="flex items-center gap-2">
        <h2 id="up-next-title" className={cn('flex flex-1 items-center gap-1.5 text-xs font-semibold uppercase tracking-wide', live ? 'text-red-700 dark:text-red-400' : 'text-primary')}>
          {live && <span aria-hidden className="size-2 rounded-full bg-red-600 dark:bg-red-400" />}
          {t(live ? 'meetups.upNext.live' : 'meetups.upNext.title')}
        </h2>
        {next.creatorId === me && !inIt && (
          <>
            <Button type="button" size="icon" variant="ghost" aria-label={t('meetups.banner.edit')} onClick={() => setEditing(true)}>
              <Pencil aria-hidden />
            </Button>
            <Button type="button" size="icon" variant="ghost" aria-label={t('meetups.banner.delete')} onClick={() => setDeleting(true)}>
              <Trash2 aria-hidden />
            </Button>
          </>
        )}
      </div>
      <p className="font-semibold" data-testid="up-next-name">
        {next.name}
      </p>
      <p className="text-sm text-muted-foreground">{t('meetups.timeFrame', { start, end })}</p>
      <div className="flex flex-wrap items-center gap-2">
        {next.myRole && canJoinYet(next, now) && <JoinButton meeting={next} />}
        <Button type="button" size="sm" variant="outline" onClick={() => setDetails(true)}>
          {t('meetups.upNext.details')}
        </Button>
        {all.length >= 2 && (
          <Button type="button" size="sm" variant="ghost" onClick={() => setMore(true)}>
            {t('meetups.upNext.viewMore')}
          </Button>
        )}
      </div>
      <Dialog open={details} onOpenChange={setDetails}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{next.name}</DialogTitle>
            <DialogDescription>{t('meetups.timeFrame', { start, end })}</DialogDescription>
          </DialogHeader>
          {next.agenda && (
            <div className="grid gap-1">
              <h3 className="text-sm font-medium">{t('meetups.banner.agenda')}</h3>
              <p className="whitespace-pre-wrap text-sm">{next.agenda}</p>
            </div>
          )}
          <MeetupSummary meeting={next} showForum={false} onGo={() => setDetails(false)} />
        </DialogContent>
      </Dialog>
      <Dialog open={more} onOpenChange={setMore}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{t('meetups.upNext.allTitle')}</DialogTitle>
            <DialogDescription className="sr-only">{t('meetups.upNext.allTitle')}</DialogDescription>
          </DialogHeader>
          <ul className="grid gap-3">
            {all.map((m) => (
              <li key={m.roomId}>
                <MeetupSummary meeting={m} showForum={false} onGo={() => setMore(false)} />
              </li>
            ))}
          </ul>
        </DialogContent>
      </Dialog>
      {editing && <MeetupFormDialog open onOpenChange={setEditing} series={series} canOpen={series.role === 'admin'} meeting={next} />}
      <DeleteMeetupDialog meeting={next} open={deleting} onOpenChange={setDeleting} />
    </section>
  )
}
