import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Track } from 'livekit-client'
import { Maximize2, Mic, MicOff, Video, VideoOff } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { AiNotesIndicator } from './ai-notes'
import { enableCamera } from './background'
import { useMeetupRoom } from './context'
import { MeetupStage } from './meetup-stage'
import { isOn, useRoomChanges } from './use-room'

/**
 * MeetupDock shows the member's Meet Up wherever they are: the whole Meet Up
 * screen on its forum's pages, elsewhere the docked mini bar (its name, the
 * microphone and camera, and a fullscreen button that opens the screen over
 * the page), with the AI notes indicator while they are on. The room stays
 * connected throughout: the provider keeps it.
 */
export function MeetupDock({ seriesId }: { /** The forum whose page is shown. */ seriesId?: string }) {
  const { active } = useMeetupRoom()
  const [full, setFull] = useState(false)
  if (!active) return null
  // On its forum's pages the Meet Up fills the screen below the top bar (3.5rem), the forum's page below it.
  if (seriesId === active.meeting.seriesId)
    return (
      <div className="p-2 pb-0 sm:p-4 sm:pb-0">
        <MeetupStage active={active} className="h-[calc(100dvh-4.5rem)] sm:h-[calc(100dvh-5.5rem)]" />
      </div>
    )
  if (full)
    return (
      <div className="fixed inset-0 z-40 overflow-y-auto bg-background p-2 sm:p-4" data-testid="meetup-fullscreen">
        <MeetupStage active={active} onMinimize={() => setFull(false)} className="h-full" />
      </div>
    )
  return <MiniBar onFullscreen={() => setFull(true)} />
}

function MiniBar({ onFullscreen }: { onFullscreen: () => void }) {
  const { t } = useTranslation()
  const { active } = useMeetupRoom()
  useRoomChanges(active!.room)
  const lp = active!.room.localParticipant
  const mic = isOn(lp, Track.Source.Microphone)
  const cam = isOn(lp, Track.Source.Camera)
  return (
    <section
      aria-label={t('meetups.room.minimized', { name: active!.meeting.name })}
      className="fixed bottom-4 right-4 z-40 flex items-center gap-2 rounded-full border bg-zinc-950 py-1.5 pl-4 pr-1.5 text-zinc-50 shadow-lg"
      data-testid="meetup-minibar"
    >
      <span className="max-w-48 truncate text-sm font-medium">{active!.meeting.name}</span>
      <AiNotesIndicator active={active!} />
      <Button type="button" size="icon" variant={mic ? 'secondary' : 'destructive'} aria-label={t(mic ? 'meetups.room.micOn' : 'meetups.room.micOff')} onClick={() => void lp.setMicrophoneEnabled(!mic).catch(() => undefined)}>
        {mic ? <Mic aria-hidden /> : <MicOff aria-hidden />}
      </Button>
      <Button type="button" size="icon" variant={cam ? 'secondary' : 'destructive'} aria-label={t(cam ? 'meetups.room.cameraOn' : 'meetups.room.cameraOff')} onClick={() => void enableCamera(lp, !cam).catch(() => undefined)}>
        {cam ? <Video aria-hidden /> : <VideoOff aria-hidden />}
      </Button>
      <Button type="button" size="icon" variant="secondary" aria-label={t('meetups.room.fullscreen')} onClick={onFullscreen}>
        <Maximize2 aria-hidden />
      </Button>
    </section>
  )
}
