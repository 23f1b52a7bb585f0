import { useEffect } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Sparkles } from 'lucide-react'
import { toast } from '@/components/ui/toast'
import { cn } from '@/lib/utils'
import { useMeetingOf } from '../api/get-meetup'
import { meetingKeys } from '../api/keys'
import type { Meeting } from '../api/types'
import type { ActiveMeetup } from './context'

// Consent (issue 31): everyone in a Meet Up is told that AI notes are on,
// not only the host who turned them on — a badge while they are, and a
// notice when they come on or when someone arrives while they are on. The
// state is the Meet Up's minutes.state, read again from the API on each
// join (the post that was joined may be older than the notes) and kept live
// by meeting.minutes.updated (lib/live.ts), which reaches every participant.

/**
 * notesOn tells whether the AI notes transcribe the room the member is in:
 * the recorder listens to the main room only, so a breakout room is not.
 */
const notesOn = (m: Meeting, roomName: string) => m.minutes.state === 'started' && roomName === m.roomId

// Per room connection (a breakout move or a new join is a new Room): whether
// its Meet Up was read again, and whether its member was told the notes are
// on. The screen remounts as the member moves around the app; the notice is
// once per connection and per time the notes come on.
const reread = new WeakSet<object>()
const told = new WeakSet<object>()

/** AiNotesIndicator is the badge and the notice of a joined Meet Up's AI notes, for every participant. */
export function AiNotesIndicator({ active, className }: { active: ActiveMeetup; className?: string }) {
  const { t } = useTranslation()
  const qc = useQueryClient()
  const m = useMeetingOf(active.meeting)
  const { room } = active
  const on = notesOn(m, active.roomName)
  useEffect(() => {
    if (reread.has(room)) return
    reread.add(room)
    void qc.invalidateQueries({ queryKey: meetingKeys.one(m.roomId), exact: true })
  }, [qc, room, m.roomId])
  useEffect(() => {
    if (!on) {
      told.delete(room)
      return
    }
    if (told.has(room)) return
    told.add(room)
    toast({ title: t('meetups.room.notes.on'), description: t('meetups.room.notes.notice') })
  }, [on, room, t])
  if (!on) return null
  return (
    <span
      role="status"
      data-testid="ai-notes-indicator"
      title={t('meetups.room.notes.notice')}
      className={cn('inline-flex shrink-0 items-center gap-1 rounded-full bg-red-700 px-2 py-0.5 text-xs font-medium text-white', className)}
    >
      <Sparkles aria-hidden className="size-3" />
      {t('meetups.room.notes.indicator')}
    </span>
  )
}
