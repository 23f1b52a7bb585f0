import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Pencil, Trash2 } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { useCurrentUser } from '@/lib/session-context'
import { useMeetings } from '../api/list-meetups'
import { DeleteMeetupDialog } from './delete-meetup-dialog'
import type { Meeting } from '../api/types'
import { timeFrame } from '../lib/time'
import { MeetupFormDialog } from './meetup-form-dialog'
import { MeetupSummary } from './meetup-summary'

/**
 * UpNextCard is a forum's next Meet Up (spec 002 §2): 'Up next', its name,
 * time frame and details; Edit and Delete for its creator only; 'View more'
 * listing them all when two or more are upcoming. Nothing shows when none is.
 */
export function UpNextCard({ series }: { series: { id: string; name: string; role: 'admin' | 'member' } }) {
  const { t } = useTranslation()
  const me = useCurrentUser()?.user.id
  const list = useMeetings(series.id)
  const [details, setDetails] = useState(false)
  const [more, setMore] = useState(false)
  const [editing, setEditing] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const all = list.data?.results ?? []
  const next: Meeting | undefined = all[0]
  if (!next) return null
  const { start, end } = timeFrame(next)
  return (
    <section className="mb-4 grid gap-2 rounded-lg border bg-card p-4" aria-labelledby="up-next-title" data-testid="up-next">
      <div className="flex items-center gap-2">
        <h2 id="up-next-title" className="flex-1 text-xs font-semibold uppercase tracking-wide text-primary">
          {t('meetups.upNext.title')}
        </h2>
        {next.creatorId === me && (
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
      <div className="flex gap-2">
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
      <DeleteMeetupDialog meeting={next ?? { roomId: '', postId: '' }} open={deleting} onOpenChange={setDeleting} />
    </section>
  )
}
