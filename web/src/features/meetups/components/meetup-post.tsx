import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { CalendarDays, CalendarPlus, Info, Lock, Pencil, Trash2, UserPlus, Users } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover'
import { useCurrentUser } from '@/lib/session-context'
import { useMeetingOf } from '../api/get-meetup'
import { calendarUrl } from '../api/get-meetup-calendar'
import { register } from '../api/register-meetup'
import { respond } from '../api/respond-to-meetup'
import { unregister } from '../api/unregister-meetup'
import { useMeetingAction } from '../hooks/use-meeting-action'
import { DeleteMeetupDialog } from './delete-meetup-dialog'
import type { Meeting } from '../api/types'
import { timeFrame } from '../lib/time'
import { useMeetupRoom } from '../room/context'
import { AddMembersDialog } from './add-members-dialog'
import { InviteesDialog } from './invitees-dialog'
import { JoinButton } from './join-button'
import { MeetupFormDialog } from './meetup-form-dialog'
import { Minutes } from './minutes'

export type MeetupPostProps = {
  meeting: Meeting
  /** The forum, for the edit form (its name, and whether the member may make it open). */
  series: { id: string; name: string; role: 'admin' | 'member' }
}

/**
 * MeetupPost is a Meet Up post's Meet Up (spec 001 §4 "Post kind"): the
 * banner while it is not ended (name, time frame, agenda, the Private chip,
 * registration by the member's state, seats left, Join, Add to calendar,
 * the creator's Edit and Delete), or the ended view with its AI notes.
 */
export function MeetupPost({ meeting: given, series }: MeetupPostProps) {
  const { t } = useTranslation()
  const m = useMeetingOf(given)
  const me = useCurrentUser()?.user.id ?? ''
  const room = useMeetupRoom()
  const inIt = room.active?.meeting.roomId === m.roomId
  const isCreator = m.creatorId === me
  const isModerator = m.roles[me] === 'moderator'
  const [editing, setEditing] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const [adding, setAdding] = useState(false)
  const [listing, setListing] = useState(false)
  const { start, end } = timeFrame(m)
  const transcribing = m.minutes.state === 'started' || m.minutes.state === 'compiling'
  const titleId = `meetup-${m.roomId}-name`

  return (
    <section className="grid gap-3 rounded-lg border bg-muted/40 p-4" aria-labelledby={titleId} data-testid="meetup" data-ended={m.ended || undefined}>
      <div className="flex flex-wrap items-start gap-2">
        <CalendarDays aria-hidden className="mt-0.5 size-5 text-primary" />
        <div className="min-w-0 flex-1">
          <h3 id={titleId} className="font-semibold" data-testid="meetup-name">
            {m.name}
          </h3>
          <p className="text-sm text-muted-foreground" data-testid="meetup-time">
            <time dateTime={m.startTime}>{start}</time> – <time dateTime={m.endTime}>{end}</time>
          </p>
        </div>
        {!m.open && <PrivateChip />}
        {m.ended && (
          <Badge variant="outline" data-testid="meetup-ended">
            {t(transcribing ? 'meetups.banner.transcribing' : 'meetups.banner.ended')}
          </Badge>
        )}
      </div>
      {m.agenda && (
        <p className="whitespace-pre-wrap text-sm" data-testid="meetup-agenda">
          {m.agenda}
        </p>
      )}

      {!m.ended && (
        <>
          {m.open && m.seatsLeft !== null && (
            <p className="text-sm font-medium" data-testid="seats-left">
              {m.seatsLeft > 0 ? t('meetups.banner.spotsLeft', { count: m.seatsLeft }) : t('meetups.banner.noSpots')}
            </p>
          )}
          <div className="flex flex-wrap items-center gap-2">
            <Registration meeting={m} me={me} />
            {m.myRole && <JoinButton meeting={m} />}
            <Button asChild size="sm" variant="outline">
              <a href={calendarUrl(m.roomId)} download={`${m.name}.ics`}>
                <CalendarPlus aria-hidden />
                {t('meetups.banner.addToCalendar')}
              </a>
            </Button>
            <Button type="button" size="sm" variant="ghost" onClick={() => setListing(true)}>
              <Users aria-hidden />
              {t('meetups.banner.invitees')}
            </Button>
            {!m.open && (isCreator || isModerator) && (
              <Button type="button" size="sm" variant="ghost" onClick={() => setAdding(true)}>
                <UserPlus aria-hidden />
                {t('meetups.addMembers.action')}
              </Button>
            )}
            {isCreator && !inIt && (
              <span className="ml-auto flex gap-1">
                <Button type="button" size="icon" variant="ghost" aria-label={t('meetups.banner.edit')} onClick={() => setEditing(true)}>
                  <Pencil aria-hidden />
                </Button>
                <Button type="button" size="icon" variant="ghost" aria-label={t('meetups.banner.delete')} onClick={() => setDeleting(true)}>
                  <Trash2 aria-hidden />
                </Button>
              </span>
            )}
          </div>
        </>
      )}
      {m.ended && <Minutes meeting={m} canEdit={isCreator || isModerator} />}

      {editing && <MeetupFormDialog open onOpenChange={setEditing} series={series} canOpen={series.role === 'admin'} meeting={m} />}
      {adding && <AddMembersDialog open onOpenChange={setAdding} meeting={m} />}
      <InviteesDialog open={listing} onOpenChange={setListing} meeting={m} />
      <DeleteMeetupDialog meeting={m} open={deleting} onOpenChange={setDeleting} />
    </section>
  )
}

function PrivateChip() {
  const { t } = useTranslation()
  return (
    <span className="flex items-center gap-1">
      <Badge variant="secondary" className="gap-1" data-testid="private-chip">
        <Lock aria-hidden className="size-3" />
        {t('meetups.banner.private')}
      </Badge>
      <Popover>
        <PopoverTrigger asChild>
          <Button type="button" variant="ghost" size="icon" className="size-6" aria-label={t('meetups.banner.privateInfo')}>
            <Info aria-hidden />
          </Button>
        </PopoverTrigger>
        <PopoverContent className="w-64 text-sm">{t('meetups.banner.privateDisclaimer')}</PopoverContent>
      </Popover>
    </span>
  )
}

/**
 * Registration is the member's registration buttons (spec 002 §4): Register
 * for an open Meet Up they are not on; Unregister when registered; their
 * waitlist place and Leave waitlist; Accept (and Decline) for an invitee who
 * has not said yes; nothing for yes and for the creator.
 */
function Registration({ meeting: m, me }: { meeting: Meeting; me: string }) {
  const { t } = useTranslation()
  const reg = useMeetingAction(() => register(m.roomId))
  const unreg = useMeetingAction(() => unregister(m.roomId))
  const answer = useMeetingAction((r: 'yes' | 'no') => respond(m.postId, r))
  const busy = reg.isPending || unreg.isPending || answer.isPending
  if (m.creatorId === me) return null
  const invited = me in m.invitees
  const response = m.invitees[me] ?? null
  if (response === 'registered')
    return (
      <Button type="button" size="sm" variant="outline" disabled={busy} onClick={() => unreg.mutate(undefined)}>
        {t('meetups.banner.unregister')}
      </Button>
    )
  if (response === 'waitlisted')
    return (
      <>
        <span className="text-sm" data-testid="waitlist-position">
          {t('meetups.banner.waitlisted', { position: m.waitlist.indexOf(me) + 1 })}
        </span>
        <Button type="button" size="sm" variant="outline" disabled={busy} onClick={() => unreg.mutate(undefined)}>
          {t('meetups.banner.leaveWaitlist')}
        </Button>
      </>
    )
  if (invited && response !== 'yes')
    return (
      <>
        <Button type="button" size="sm" disabled={busy} onClick={() => answer.mutate('yes')}>
          {t('meetups.banner.accept')}
        </Button>
        {response === null && (
          <Button type="button" size="sm" variant="ghost" disabled={busy} onClick={() => answer.mutate('no')}>
            {t('meetups.banner.decline')}
          </Button>
        )}
      </>
    )
  if (!invited && m.open)
    return (
      <Button type="button" size="sm" disabled={busy} onClick={() => reg.mutate(undefined)}>
        {t('meetups.banner.register')}
      </Button>
    )
  return null
}
