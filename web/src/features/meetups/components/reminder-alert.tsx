import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { BellRing } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { idList, personalizationQuery, usePersonalization, useUpdatePersonalization, withId } from '@/lib/personalization'
import { useCurrentUser } from '@/lib/session-context'
import { useMeetings } from '../api/list-meetups'
import type { Meeting } from '../api/types'
import type { ForumAccess } from './meetup-summary'
import { timeFrame } from '../lib/time'

/** The personalization key of the dismissed Meet Up reminders (their tags; spec 002 §3). */
export const REMINDERS_DISMISSED = 'reminders.meeting.dismissed'

/**
 * due is the first Meet Up whose reminder time has come, not dismissed,
 * not ended, not of the forum shown, and the member's (mine): a super
 * user reads every Meet Up, but is reminded only of their own.
 */
export function due(list: Meeting[], dismissed: string[], seriesId: string | undefined, now = Date.now(), mine: (m: Meeting) => boolean = () => true): Meeting | undefined {
  return list.find(
    (m) => !m.ended && Date.parse(m.reminderAt) <= now && now < Date.parse(m.endTime) && !dismissed.includes(m.tag) && m.seriesId !== seriesId && mine(m),
  )
}

/**
 * MeetupReminder is the upcoming-Meet-Up alert (spec 002 §4 "Reminders"):
 * from 15 minutes before a Meet Up the member may join (reminderAt) until
 * its end, unless they are on its forum's page; Dismiss stores its tag in
 * reminders.meeting.dismissed. For a forum the member has no access to
 * (access), Subscribe replaces Go (spec 000 §6) and opens the forum's page,
 * whose subscribe prompt takes it from there. It reminds of a Meet Up of
 * a forum in the member's list (access knows it) or one they are invited
 * to or created; once it has started, it says so.
 */
export function MeetupReminder({ seriesId, access }: { /** The forum whose page is shown. */ seriesId?: string; access?: ForumAccess }) {
  const { t } = useTranslation()
  const userId = useCurrentUser()?.user.id ?? ''
  const qc = useQueryClient()
  const list = useMeetings(undefined, !!userId)
  const personalization = usePersonalization()
  const update = useUpdatePersonalization(userId)
  const [now, setNow] = useState(() => Date.now())
  const results = list.data?.results ?? []
  // Wake at the next reminder time or start to come.
  const next = Math.min(...results.flatMap((m) => [Date.parse(m.reminderAt), Date.parse(m.startTime)]).filter((at) => at > now))
  useEffect(() => {
    if (!Number.isFinite(next)) return
    const id = setTimeout(() => setNow(Date.now()), Math.min(next - Date.now() + 50, 2 ** 31 - 1))
    return () => clearTimeout(id)
  }, [next])
  if (!personalization.data) return null
  const mine = (m: Meeting) => !access || access(m.seriesId) !== undefined || userId in m.invitees || m.creatorId === userId
  const m = due(results, idList(personalization.data, REMINDERS_DISMISSED), seriesId, now, mine)
  if (!m) return null
  const started = now >= Date.parse(m.startTime)
  const dismiss = () =>
    void qc.ensureQueryData(personalizationQuery(userId)).then(
      (p) => update.mutate({ [REMINDERS_DISMISSED]: withId(idList(p, REMINDERS_DISMISSED), m.tag) }),
      (e: unknown) => console.warn('reminder: the personalization could not be read', e),
    )
  const titleId = `reminder-${m.roomId}`
  return (
    <section
      role="alert"
      aria-labelledby={titleId}
      className="fixed bottom-4 left-4 z-50 grid w-80 max-w-[calc(100vw-2rem)] gap-2 rounded-lg border bg-card p-4 text-card-foreground shadow-lg"
      data-testid="meetup-reminder"
    >
      <h2 id={titleId} className="flex items-center gap-2 font-semibold">
        <BellRing aria-hidden className="size-4 text-primary" />
        {t(started ? 'meetups.reminder.startedTitle' : 'meetups.reminder.title', { name: m.name })}
      </h2>
      <p className="text-sm text-muted-foreground">{t(started ? 'meetups.reminder.startedBody' : 'meetups.reminder.body', { forum: m.context.seriesName, start: timeFrame(m).start })}</p>
      <div className="flex justify-end gap-2">
        <Button type="button" size="sm" variant="ghost" onClick={dismiss}>
          {t('meetups.reminder.dismiss')}
        </Button>
        <Button asChild size="sm">
          {access?.(m.seriesId) === false ? (
            <Link to="/communities/$communityId/series/$seriesId" params={{ communityId: m.context.communityId, seriesId: m.seriesId }}>
              {t('meetups.subscribe')}
            </Link>
          ) : (
            <Link to="/communities/$communityId/series/$seriesId/posts/$postId" params={{ communityId: m.context.communityId, seriesId: m.seriesId, postId: m.postId }}>
              {t('meetups.reminder.go')}
            </Link>
          )}
        </Button>
      </div>
    </section>
  )
}
