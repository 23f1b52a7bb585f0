import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { VideoTrack } from '@livekit/components-react'
import { Track, type Participant } from 'livekit-client'
import { MicOff } from 'lucide-react'
import { PersonAvatar } from '@/components/ui/avatar'
import { toast } from '@/components/ui/toast'
import { timeFrame } from '../lib/time'
import { useMeetupRoom } from './context'
import { breakoutName } from './meetup-stage'
import { isOn, peersOf, useRoomChanges } from './use-room'

/** SHARE_HELP_DELAY: the screen share help toast shows 250 ms after someone presents (spec 002 §9). */
export const SHARE_HELP_DELAY = 250

/**
 * MeetupPanel is the right panel's meetups tab, offered while a Meet Up is
 * on (spec 002 §2): the Meet Up, the room the member is in, and who is in
 * it; full screen, the screen someone presents as well.
 */
export function MeetupPanel({ fullscreen = false }: { /** The panel fills the screen. */ fullscreen?: boolean }) {
  const { active } = useMeetupRoom()
  if (!active) return null
  return <Body fullscreen={fullscreen} />
}

function Body({ fullscreen }: { fullscreen: boolean }) {
  const { t } = useTranslation()
  const { active } = useMeetupRoom()
  const { meeting: m, room, roomName } = active!
  useRoomChanges(room)
  const { start, end } = timeFrame(m)
  const peers = peersOf(room)
  const presenter = peers.find((p) => isOn(p, Track.Source.ScreenShare))
  const nameOf = (p: Participant) => p.name || p.identity
  const presenterName = presenter && (presenter === room.localParticipant ? null : nameOf(presenter))
  useShareHelp(presenter ? presenterName : undefined, fullscreen)
  const screen = presenter?.getTrackPublication(Track.Source.ScreenShare)
  return (
    <div className="grid gap-3" data-testid="meetup-panel">
      <div>
        <h2 className="font-semibold">{m.name}</h2>
        <p className="text-sm text-muted-foreground">{t('meetups.timeFrame', { start, end })}</p>
        {roomName !== m.roomId && <p className="text-sm">{t('meetups.room.breakout.inRoom', { name: breakoutName(m, roomName) })}</p>}
      </div>
      {fullscreen && presenter && screen && (
        <figure className="grid gap-1" data-testid="meetup-presentation">
          <VideoTrack trackRef={{ participant: presenter, publication: screen, source: Track.Source.ScreenShare }} className="max-h-[70dvh] w-full rounded-md bg-zinc-950 object-contain" />
          <figcaption className="text-sm text-muted-foreground">
            {presenterName ? t('meetups.room.presenting', { name: presenterName }) : t('meetups.room.presentingYou')}
          </figcaption>
        </figure>
      )}
      <ul className="grid gap-2" aria-label={t('meetups.room.peers')}>
        {peers.map((p) => {
          const name = nameOf(p)
          return (
            <li key={p.identity} className="flex items-center gap-2 text-sm">
              <PersonAvatar person={{ id: p.identity, firstName: name.split(' ')[0] ?? '', lastName: name.split(' ').slice(1).join(' ') }} className="size-7" />
              <span className="min-w-0 flex-1 truncate">{p === room.localParticipant ? t('meetups.room.you', { name }) : name}</span>
              {!isOn(p, Track.Source.Microphone) && <MicOff aria-label={t('meetups.room.micOff')} className="size-4 text-muted-foreground" />}
            </li>
          )
        })}
      </ul>
    </div>
  )
}

/**
 * useShareHelp shows the screen share help toast 250 ms after someone
 * presents while the meetups tab is shown (this panel is mounted only
 * then) and not full screen, and takes it away as soon as that stops
 * being so: the presenting ends, the panel goes full screen, or another
 * tab is chosen (spec 002 §4). presenter is the presenter's name, null
 * for the member themselves, undefined while nobody presents.
 */
function useShareHelp(presenter: string | null | undefined, fullscreen: boolean) {
  const { t } = useTranslation()
  const title = presenter === undefined || fullscreen ? null : presenter === null ? t('meetups.room.shareHelpYou') : t('meetups.room.shareHelp', { name: presenter })
  useEffect(() => {
    if (!title) return
    let dismiss: (() => void) | undefined
    const timer = setTimeout(() => (dismiss = toast({ title })), SHARE_HELP_DELAY)
    return () => {
      clearTimeout(timer)
      dismiss?.()
    }
  }, [title])
}
