import { useTranslation } from 'react-i18next'
import { Track } from 'livekit-client'
import { MicOff } from 'lucide-react'
import { PersonAvatar } from '@/components/ui/avatar'
import { timeFrame } from '../lib/time'
import { useMeetupRoom } from './context'
import { breakoutName } from './meetup-stage'
import { isOn, peersOf, useRoomChanges } from './use-room'

/**
 * MeetupPanel is the right panel's meetups tab, offered while a Meet Up is
 * on (spec 002 §2): the Meet Up, the room the member is in, and who is in it.
 */
export function MeetupPanel() {
  const { active } = useMeetupRoom()
  if (!active) return null
  return <Body />
}

function Body() {
  const { t } = useTranslation()
  const { active } = useMeetupRoom()
  const { meeting: m, room, roomName } = active!
  useRoomChanges(room)
  const { start, end } = timeFrame(m)
  return (
    <div className="grid gap-3" data-testid="meetup-panel">
      <div>
        <h2 className="font-semibold">{m.name}</h2>
        <p className="text-sm text-muted-foreground">{t('meetups.timeFrame', { start, end })}</p>
        {roomName !== m.roomId && <p className="text-sm">{t('meetups.room.breakout.inRoom', { name: breakoutName(m, roomName) })}</p>}
      </div>
      <ul className="grid gap-2" aria-label={t('meetups.room.peers')}>
        {peersOf(room).map((p) => {
          const name = p.name || p.identity
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
