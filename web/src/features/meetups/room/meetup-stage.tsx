import { useEffect, useRef, useState, type CSSProperties } from 'react'
import { useTranslation } from 'react-i18next'
import { RoomContext, VideoTrack } from '@livekit/components-react'
import { Room, Track, type Participant } from 'livekit-client'
import { DoorOpen, LogOut, MessageSquare, Mic, MicOff, MonitorUp, PhoneOff, Presentation, Settings, Sparkles, SquareUserRound, Users, Video, VideoOff } from 'lucide-react'
import { PersonAvatar } from '@/components/ui/avatar'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover'
import { Switch } from '@/components/ui/switch'
import { toast } from '@/components/ui/toast'
import { useCurrentUser } from '@/lib/session-context'
import { cn } from '@/lib/utils'
import { cancelMinutes } from '../api/cancel-minutes'
import { closeBreakouts } from '../api/close-breakouts'
import { endMeeting } from '../api/end-meetup'
import { useMeetingOf } from '../api/get-meetup'
import { usePermissions } from '../api/get-meetup-permissions'
import { joinBreakoutRoom } from '../api/join-breakout-room'
import { leaveBreakoutRoom } from '../api/leave-breakout-room'
import { openBreakouts } from '../api/open-breakouts'
import { startRecording } from '../api/start-recording'
import { useMeetingAction } from '../hooks/use-meeting-action'
import type { Meeting } from '../api/types'
import { endingSoonAt } from '../lib/time'
import { AiNotesIndicator } from './ai-notes'
import { enableCamera } from './background'
import { BackgroundSettings } from './background-settings'
import { ChatWindow } from './chat-window'
import { useMeetupRoom, type ActiveMeetup } from './context'
import { focusLayout, galleryFit, gridSize, pageSize, visiblePeers, type Box } from './grid'
import { mediaErrorKey, type MediaSource } from './media-errors'
import { isOn, layoutStore, mirrorStore, peersOf, readMirror, useLastSpeaker, useRoomChanges, useSize, useWidth } from './use-room'

/**
 * MeetupStage is the Meet Up screen (spec 002 §2): the participants' tiles
 * filling the stage (Peers), the actions row (microphone, camera, screen
 * share, chat, breakouts, AI notes, device settings, leave or end for
 * all), the AI notes indicator that every participant sees, the chat, the
 * breakout rooms and their forced prompt, and the ending-soon warning. Its
 * height is given by className (the screen below the top bar, or all of
 * it), and the tiles take what the rest leaves.
 */
export function MeetupStage({ active, onMinimize, className }: { active: ActiveMeetup; onMinimize?: () => void; className?: string }) {
  const { t } = useTranslation()
  const m = useMeetingOf(active.meeting)
  const { room } = active
  useRoomChanges(room)
  const width = useWidth()
  const { chatOpen = false, setChatOpen = () => {}, chatUnread = false } = useMeetupRoom()
  const layout = layoutStore.use()
  const peers = peersOf(room)
  const sharing = peers.some((p) => isOn(p, Track.Source.ScreenShare))
  return (
    <RoomContext.Provider value={room}>
      <section
        aria-label={t('meetups.room.label', { name: m.name })}
        className={cn('flex min-h-80 flex-col gap-2 rounded-lg border bg-zinc-950 p-2 text-zinc-50 sm:gap-3 sm:p-3', className)}
        data-testid="meetup-stage"
      >
        <header className="flex items-center gap-2">
          <h2 className="min-w-0 flex-1 truncate font-semibold">{m.name}</h2>
          <AiNotesIndicator active={active} />
          {active.state === 'connecting' && <span role="status">{t('meetups.room.connecting')}</span>}
          {active.roomName !== m.roomId && (
            <span className="text-sm" data-testid="breakout-name">
              {t('meetups.room.breakout.inRoom', { name: breakoutName(m, active.roomName) })}
            </span>
          )}
          {!sharing && peers.length > 1 && (
            <Button
              type="button"
              size={width < MOBILE ? 'icon' : 'sm'}
              variant="secondary"
              aria-pressed={layout === 'speaker'}
              aria-label={width < MOBILE ? t('meetups.room.speakerView') : undefined}
              onClick={() => layoutStore.set(layout === 'speaker' ? 'gallery' : 'speaker')}
            >
              <SquareUserRound aria-hidden />
              {width >= MOBILE && t('meetups.room.speakerView')}
            </Button>
          )}
          {onMinimize && (
            <Button type="button" size="sm" variant="secondary" onClick={onMinimize}>
              {t('meetups.room.close')}
            </Button>
          )}
        </header>
        <EndingSoon meeting={m} />
        <Peers room={room} width={width} layout={layout} />
        <ActionsRow active={active} meeting={m} mobile={width < MOBILE} chatOpen={chatOpen} chatUnread={chatUnread} onChat={() => setChatOpen(!chatOpen)} />
        <BreakoutPrompt active={active} meeting={m} />
        <BreakoutsOpenPrompt active={active} meeting={m} />
      </section>
      {chatOpen && <ChatWindow roomId={m.roomId} wide={width >= MOBILE} onClose={() => setChatOpen(false)} />}
    </RoomContext.Provider>
  )
}

/** Below MOBILE pixels the Meet Up screen is the mobile one: the chat a bottom drawer, AI notes an icon (spec 002 §2, §4). */
const MOBILE = 768

/** breakoutName is the name of breakout room `<roomId>:<i>`. */
export const breakoutName = (m: Meeting, roomName: string) => {
  const i = Number(roomName.slice(m.roomId.length + 1))
  return Object.entries(m.breakouts.rooms).find(([, n]) => n === i)?.[0] ?? roomName
}

/**
 * Peers lays the participants' tiles out over the stage's free area: a
 * gallery of 16:9 tiles as large as the area allows, in at most the
 * spec's columns for the screen's width and with at most its peers in
 * view (spec 002 §9, the dominant speaker moved into view); or, while
 * someone shares their screen or in the speaker layout, the screen or the
 * speaker large and the others in a strip beside it (below it on a phone).
 * The area's size is measured, as the tiles' sizes follow from it; until
 * it is known (the first frame, a test's DOM) the tiles take a plain grid.
 */
function Peers({ room, width, layout }: { room: Room; width: number; layout: 'gallery' | 'speaker' }) {
  const { t } = useTranslation()
  const area = useRef<HTMLDivElement>(null)
  const box = useSize(area)
  const peers = peersOf(room)
  const speakers = room.activeSpeakers.map((p) => p.identity)
  const lastSpeaker = useLastSpeaker(room)
  const size = pageSize(width)
  const byId = new Map(peers.map((p) => [p.identity, p]))
  const presenter = peers.find((p) => isOn(p, Track.Source.ScreenShare))
  const others = peers.filter((p) => p !== room.localParticipant)
  // The speaker layout shows the other who spoke last, else the first other, else the member.
  const speaker = layout === 'speaker' && !presenter && peers.length > 1 ? (others.find((p) => p.identity === lastSpeaker) ?? others[0]) : undefined
  const focus = presenter ? 'share' : speaker ? 'speaker' : 'gallery'
  const inStrip = speaker ? peers.filter((p) => p !== speaker) : peers
  const shown = visiblePeers(
    inStrip.map((p) => p.identity),
    speakers,
    speaker ? Math.max(1, size - 1) : size,
  ).map((id) => byId.get(id)!)
  const tile = (p: Participant, style?: CSSProperties) => (
    <PeerTile key={p.identity} participant={p} local={p === room.localParticipant} speaking={speakers.includes(p.identity)} style={style} />
  )
  const list = (tiles: Participant[], style: CSSProperties | undefined, tileBox: Box | undefined, className?: string) => (
    <ul className={cn('flex flex-wrap content-center items-center justify-center gap-2', !tileBox && 'grid grid-cols-2', className)} style={style} aria-label={t('meetups.room.peers')} data-testid="peers-grid">
      {tiles.map((p) => tile(p, tileBox))}
    </ul>
  )
  let body
  if (focus === 'gallery') {
    const fit = box && galleryFit(box, shown.length, gridSize(width).columns)
    body = list(shown, undefined, fit ? { width: fit.width, height: fit.height } : undefined, 'size-full')
  } else {
    // A shared screen is shown whole, in its own proportions (16:9 until they are known); the speaker as a 16:9 tile.
    const dims = presenter?.getTrackPublication(Track.Source.ScreenShare)?.dimensions
    const f = box && focusLayout(box, shown.length, dims && dims.width > 0 && dims.height > 0 ? dims.width / dims.height : undefined)
    const main = f ? { width: f.main.width, height: f.main.height } : undefined
    body = (
      <div className={cn('flex size-full items-center justify-center gap-2', f?.direction === 'column' ? 'flex-col' : 'flex-row')}>
        <div className={cn('flex shrink-0 items-center justify-center', !main && 'w-full')} style={main} data-testid="stage-main">
          {presenter ? <SharedScreen presenter={presenter} local={presenter === room.localParticipant} style={main} /> : tile(speaker!, main)}
        </div>
        {shown.length > 0 && list(shown, f?.strip, f ? { width: f.fit.width, height: f.fit.height } : undefined, 'shrink-0')}
      </div>
    )
  }
  return (
    <div ref={area} className="relative min-h-0 flex-1" data-testid="stage-area" data-layout={focus}>
      <div className="absolute inset-0">{body}</div>
    </div>
  )
}

/** SharedScreen is the shared screen on the stage's large area, shown whole, with who presents it. */
function SharedScreen({ presenter, local, style }: { presenter: Participant; local: boolean; style?: CSSProperties }) {
  const { t } = useTranslation()
  const screen = presenter.getTrackPublication(Track.Source.ScreenShare)!
  const name = presenter.name || presenter.identity
  const caption = local ? t('meetups.room.presentingYou') : t('meetups.room.presenting', { name })
  return (
    <figure className={cn('relative overflow-hidden rounded-md bg-black', style ? 'size-full' : 'aspect-video w-full')} style={style} data-testid="stage-presentation" aria-label={caption}>
      <VideoTrack trackRef={{ participant: presenter, publication: screen, source: Track.Source.ScreenShare }} className="size-full object-contain" />
      <figcaption className="absolute bottom-1 left-1 flex max-w-[calc(100%-0.5rem)] items-center gap-1 rounded bg-black/70 px-1.5 py-0.5 text-xs">
        <Presentation aria-hidden className="size-3 shrink-0" />
        <span className="truncate">{caption}</span>
      </figcaption>
    </figure>
  )
}

/** The label's room at a tile's foot: an avatar is drawn above it, or not at all when the tile is too low for both. */
const LABEL_ROOM = 52
/** The smallest avatar drawn, in pixels. */
const MIN_AVATAR = 20

/**
 * PeerTile is one participant: their camera, else their avatar, with
 * their name and a muted microphone's mark; style gives its size in a
 * measured layout, else it is a 16:9 cell of the plain grid.
 */
function PeerTile({ participant: p, local, speaking, style }: { participant: Participant; local: boolean; speaking: boolean; style?: CSSProperties }) {
  const { t } = useTranslation()
  const name = p.name || p.identity
  const camera = p.getTrackPublication(Track.Source.Camera)
  const shown = camera?.track && !camera.isMuted ? camera : undefined
  const mirror = local && readMirror()
  const height = typeof style?.height === 'number' ? style.height : undefined
  const avatar = height === undefined ? 56 : Math.floor(Math.min(height * 0.4, 96, height - LABEL_ROOM))
  return (
    <li
      className={cn('relative shrink-0 overflow-hidden rounded-md bg-zinc-800', !style && 'aspect-video', speaking && 'ring-2 ring-emerald-400')}
      style={style}
      data-testid="peer"
      data-identity={p.identity}
      aria-label={local ? t('meetups.room.you', { name }) : name}
    >
      {shown ? (
        <VideoTrack
          trackRef={{ participant: p, publication: shown, source: shown.source }}
          className={cn('size-full object-cover', mirror && '-scale-x-100')}
          data-testid="peer-video"
        />
      ) : (
        avatar >= MIN_AVATAR && (
          <div className="flex size-full items-center justify-center">
            <div style={{ width: avatar, height: avatar, fontSize: Math.max(12, Math.round(avatar * 0.36)) }}>
              <PersonAvatar
                person={{ id: p.identity, firstName: name.split(' ')[0] ?? '', lastName: name.split(' ').slice(1).join(' ') }}
                className="size-full [&>span]:[font-size:inherit]"
              />
            </div>
          </div>
        )
      )}
      <span className="absolute bottom-1 left-1 flex max-w-[calc(100%-0.5rem)] items-center gap-1 rounded bg-black/70 px-1.5 py-0.5 text-xs">
        {!isOn(p, Track.Source.Microphone) && <MicOff aria-label={t('meetups.room.micOff')} className="size-3 shrink-0" />}
        <span className="truncate">{local ? t('meetups.room.you', { name }) : name}</span>
      </span>
    </li>
  )
}

function useMediaError() {
  const { t } = useTranslation()
  return (e: unknown, source: MediaSource) => {
    console.warn('Meet Up media', e)
    const key = mediaErrorKey(e, source)
    if (key) toast({ title: t(key), variant: 'destructive' })
  }
}

type Notes = 'off' | 'starting' | 'running' | 'stopping'

function ActionsRow({
  active,
  meeting: m,
  mobile,
  chatOpen,
  chatUnread,
  onChat,
}: {
  active: ActiveMeetup
  meeting: Meeting
  mobile: boolean
  chatOpen: boolean
  /** Another's message came while the chat was closed: the button shows a dot. */
  chatUnread: boolean
  onChat: () => void
}) {
  const { t } = useTranslation()
  const { room } = active
  const lp = room.localParticipant
  const ctl = useMeetupRoom()
  const me = useCurrentUser()?.user.id
  const perms = usePermissions(m.roomId).data
  const fail = useMediaError()
  const [confirm, setConfirm] = useState<'leave' | 'end' | 'notes' | null>(null)
  const [breakouts, setBreakouts] = useState(false)
  const mic = isOn(lp, Track.Source.Microphone)
  const cam = isOn(lp, Track.Source.Camera)
  const sharing = isOn(lp, Track.Source.ScreenShare)
  const end = useMeetingAction(() => endMeeting(m.roomId))
  const record = useMeetingAction(() => startRecording(m.roomId))
  const cancel = useMeetingAction(() => cancelMinutes(m.roomId))
  // Running follows the Meet Up's minutes (another moderator may turn them
  // on or off); starting waits until the recording runs, stopping until the
  // cancel is answered. The notice that they are on is AiNotesIndicator's,
  // the same for the host as for everyone.
  const [pending, setPending] = useState<'starting' | 'stopping' | null>(null)
  const running = m.minutes.state === 'started'
  const notes: Notes = pending === 'starting' && !running ? 'starting' : pending === 'stopping' ? 'stopping' : running ? 'running' : 'off'

  const toggle = (source: 'microphone' | 'camera') => {
    const p = source === 'microphone' ? lp.setMicrophoneEnabled(!mic) : enableCamera(lp, !cam)
    p.catch((e: unknown) => fail(e, source))
  }
  const share = () => {
    lp.setScreenShareEnabled(!sharing).catch((e: unknown) => fail(e, 'screen'))
  }
  // The creator or a moderator, under 120 minutes; on mobile only the creator, as an icon (spec 002 §4).
  const showNotes = !!perms?.canRecord && m.duration < 120 && (!mobile || m.creatorId === me)
  const hasBreakouts = Object.keys(m.breakouts.rooms).length > 0
  return (
    <div role="toolbar" aria-label={t('meetups.room.label', { name: m.name })} className="flex flex-wrap items-center justify-center gap-2">
      <Button type="button" size="icon" variant={mic ? 'secondary' : 'destructive'} aria-label={t(mic ? 'meetups.room.micOn' : 'meetups.room.micOff')} aria-pressed={mic} onClick={() => toggle('microphone')}>
        {mic ? <Mic aria-hidden /> : <MicOff aria-hidden />}
      </Button>
      <Button type="button" size="icon" variant={cam ? 'secondary' : 'destructive'} aria-label={t(cam ? 'meetups.room.cameraOn' : 'meetups.room.cameraOff')} aria-pressed={cam} onClick={() => toggle('camera')}>
        {cam ? <Video aria-hidden /> : <VideoOff aria-hidden />}
      </Button>
      <Button type="button" size="icon" variant="secondary" aria-label={t(sharing ? 'meetups.room.shareOn' : 'meetups.room.shareOff')} aria-pressed={sharing} onClick={share}>
        <MonitorUp aria-hidden />
      </Button>
      <Button
        type="button"
        size="icon"
        variant="secondary"
        className="relative"
        aria-label={t(chatUnread ? 'meetups.room.chatUnread' : 'meetups.room.chat')}
        aria-pressed={chatOpen}
        onClick={onChat}
      >
        <MessageSquare aria-hidden />
        {chatUnread && <span aria-hidden className="absolute right-1 top-1 size-2.5 rounded-full bg-red-500 ring-2 ring-zinc-950" data-testid="chat-unread" />}
      </Button>
      {hasBreakouts && (m.breakouts.open || perms?.canManageBreakouts) && (
        <Button type="button" size="icon" variant="secondary" aria-label={t('meetups.room.breakouts')} onClick={() => setBreakouts(true)}>
          <Users aria-hidden />
        </Button>
      )}
      {showNotes && (
        <Button
          type="button"
          size={mobile ? 'icon' : 'sm'}
          variant={notes === 'running' ? 'default' : 'secondary'}
          disabled={notes === 'starting' || notes === 'stopping'}
          aria-pressed={notes === 'running'}
          aria-label={mobile ? t(`meetups.room.notes.${notes}`) : undefined}
          onClick={() => {
            if (notes === 'running') return setConfirm('notes')
            setPending('starting')
            record.mutate(undefined, { onSettled: () => setPending(null) })
          }}
        >
          <Sparkles aria-hidden />
          {!mobile && t(`meetups.room.notes.${notes}`)}
        </Button>
      )}
      <DeviceSettings room={room} />
      <BackgroundSettings participant={lp} />
      <Button type="button" size="sm" variant="destructive" onClick={() => setConfirm('leave')}>
        <LogOut aria-hidden />
        {t('meetups.room.leave')}
      </Button>
      {perms?.canEndRoom && (
        <Button type="button" size="sm" variant="destructive" onClick={() => setConfirm('end')}>
          <PhoneOff aria-hidden />
          {t('meetups.room.end')}
        </Button>
      )}
      <ConfirmDialog
        open={confirm === 'leave'}
        onOpenChange={(o) => !o && setConfirm(null)}
        title={t('meetups.room.leaveTitle')}
        description={t('meetups.room.leaveBody')}
        cancelLabel={t('meetups.room.cancel')}
        confirmLabel={t('meetups.room.leave')}
        onConfirm={() => {
          setConfirm(null)
          void ctl.leave()
        }}
      />
      <ConfirmDialog
        open={confirm === 'end'}
        onOpenChange={(o) => !o && setConfirm(null)}
        title={t('meetups.room.endTitle')}
        description={t('meetups.room.endBody')}
        cancelLabel={t('meetups.room.cancel')}
        confirmLabel={t('meetups.room.end')}
        pending={end.isPending}
        onConfirm={() => end.mutate(undefined, { onSettled: () => setConfirm(null) })}
      />
      <ConfirmDialog
        open={confirm === 'notes'}
        onOpenChange={(o) => !o && setConfirm(null)}
        title={t('meetups.room.notes.confirmTitle')}
        description={t('meetups.room.notes.confirmBody')}
        cancelLabel={t('meetups.room.cancel')}
        confirmLabel={t('meetups.room.notes.confirm')}
        onConfirm={() => {
          setConfirm(null)
          setPending('stopping')
          cancel.mutate(undefined, { onSettled: () => setPending(null) })
        }}
      />
      <BreakoutsDialog open={breakouts} onOpenChange={setBreakouts} active={active} meeting={m} canManage={!!perms?.canManageBreakouts} />
    </div>
  )
}

function DeviceSettings({ room }: { room: Room }) {
  const { t } = useTranslation()
  const [devices, setDevices] = useState<MediaDeviceInfo[]>([])
  const [mirror, setMirror] = useState(readMirror)
  const [open, setOpen] = useState(false)
  useEffect(() => {
    if (!open) return
    Room.getLocalDevices(undefined, false).then(setDevices, (e: unknown) => console.warn('devices', e))
  }, [open])
  const select = (kind: MediaDeviceKind, label: string) => (
    <label className="grid gap-1 text-sm">
      {label}
      <select
        className="h-9 rounded-md border bg-background px-2"
        value={room.getActiveDevice(kind) ?? ''}
        onChange={(e) => void room.switchActiveDevice(kind, e.target.value).catch((err: unknown) => console.warn('device', err))}
      >
        {devices
          .filter((d) => d.kind === kind)
          .map((d) => (
            <option key={d.deviceId} value={d.deviceId}>
              {d.label || d.deviceId}
            </option>
          ))}
      </select>
    </label>
  )
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button type="button" size="icon" variant="secondary" aria-label={t('meetups.room.settings')}>
          <Settings aria-hidden />
        </Button>
      </PopoverTrigger>
      <PopoverContent className="grid w-72 gap-3" aria-label={t('meetups.room.settings')}>
        {select('videoinput', t('meetups.room.camera'))}
        {select('audioinput', t('meetups.room.microphone'))}
        {open && <MicMeter deviceId={room.getActiveDevice('audioinput')} />}
        <label className="flex items-center justify-between gap-2 text-sm">
          {t('meetups.room.mirror')}
          <Switch
            checked={mirror}
            onCheckedChange={(on) => {
              mirrorStore.set(on)
              setMirror(on)
            }}
            aria-label={t('meetups.room.mirror')}
          />
        </label>
      </PopoverContent>
    </Popover>
  )
}

/** MIC_FFT_SIZE: the mic test's analyser (spec 002 §9). */
export const MIC_FFT_SIZE = 512

/** MicMeter shows the microphone's level (an AnalyserNode of FFT size 512), once the microphone is allowed. */
function MicMeter({ deviceId }: { deviceId?: string }) {
  const { t } = useTranslation()
  const [level, setLevel] = useState(0)
  useEffect(() => {
    if (!navigator.mediaDevices?.getUserMedia || typeof AudioContext === 'undefined') return
    let stop = () => {}
    let cancelled = false
    navigator.mediaDevices.getUserMedia({ audio: deviceId ? { deviceId } : true }).then(
      (stream) => {
        if (cancelled) return stream.getTracks().forEach((tr) => tr.stop())
        const ctx = new AudioContext()
        const analyser = ctx.createAnalyser()
        analyser.fftSize = MIC_FFT_SIZE
        ctx.createMediaStreamSource(stream).connect(analyser)
        const data = new Uint8Array(analyser.frequencyBinCount)
        let frame = 0
        const read = () => {
          analyser.getByteFrequencyData(data)
          setLevel(Math.round((data.reduce((a, b) => a + b, 0) / data.length / 255) * 100))
          frame = requestAnimationFrame(read)
        }
        read()
        stop = () => {
          cancelAnimationFrame(frame)
          stream.getTracks().forEach((tr) => tr.stop())
          void ctx.close()
        }
      },
      (e: unknown) => console.warn('mic test', e),
    )
    return () => {
      cancelled = true
      stop()
    }
  }, [deviceId])
  return (
    <div className="grid gap-1 text-sm">
      {t('meetups.room.micTest')}
      <div role="meter" aria-label={t('meetups.room.micTest')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={level} className="h-2 rounded bg-muted">
        <div className="h-full rounded bg-emerald-500" style={{ width: `${level}%` }} />
      </div>
    </div>
  )
}

function BreakoutsDialog({
  open,
  onOpenChange,
  active,
  meeting: m,
  canManage,
}: {
  open: boolean
  onOpenChange: (o: boolean) => void
  active: ActiveMeetup
  meeting: Meeting
  canManage: boolean
}) {
  const { t } = useTranslation()
  const ctl = useMeetupRoom()
  const me = useCurrentUser()?.user.id ?? ''
  const [confirm, setConfirm] = useState<'open' | 'close' | null>(null)
  const inBreakout = active.roomName !== m.roomId
  const move = async (tok: Promise<Parameters<typeof ctl.moveTo>[0]>) => {
    // Joining a room stops a screen share first (spec 002 §4).
    await active.room.localParticipant.setScreenShareEnabled(false).catch(() => undefined)
    await ctl.moveTo(await tok)
    onOpenChange(false)
  }
  const toggle = (which: 'open' | 'close') => {
    setConfirm(null)
    // Breakout open and close errors are only logged (spec 002 §8).
    void (which === 'open' ? openBreakouts(m.roomId) : closeBreakouts(m.roomId)).catch((e: unknown) => console.warn('breakouts', e))
  }
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('meetups.room.breakouts')}</DialogTitle>
          <DialogDescription className="sr-only">{t('meetups.room.breakouts')}</DialogDescription>
        </DialogHeader>
        {m.breakouts.open && (
          <ul className="grid gap-2">
            {Object.entries(m.breakouts.rooms)
              .sort((a, b) => a[1] - b[1])
              .map(([name, i]) => (
                <li key={name}>
                  <Button type="button" variant="outline" className="w-full justify-start" disabled={active.roomName === `${m.roomId}:${i}`} onClick={() => void move(joinBreakoutRoom(m.roomId, name, me))}>
                    <DoorOpen aria-hidden />
                    {t('meetups.room.breakout.join', { name })}
                  </Button>
                </li>
              ))}
          </ul>
        )}
        <DialogFooter>
          {inBreakout && (
            <Button type="button" variant="outline" onClick={() => void move(leaveBreakoutRoom(m.roomId, me))}>
              {t('meetups.room.breakout.leave')}
            </Button>
          )}
          {canManage && (
            <Button type="button" onClick={() => setConfirm(m.breakouts.open ? 'close' : 'open')}>
              {t(m.breakouts.open ? 'meetups.room.breakout.close' : 'meetups.room.breakout.open')}
            </Button>
          )}
        </DialogFooter>
        <ConfirmDialog
          open={!!confirm}
          onOpenChange={(o) => !o && setConfirm(null)}
          title={t(confirm === 'close' ? 'meetups.room.breakout.closeTitle' : 'meetups.room.breakout.openTitle')}
          description={t(confirm === 'close' ? 'meetups.room.breakout.closeBody' : 'meetups.room.breakout.openBody')}
          cancelLabel={t('meetups.room.cancel')}
          confirmLabel={t(confirm === 'close' ? 'meetups.room.breakout.close' : 'meetups.room.breakout.open')}
          destructive={confirm === 'close'}
          onConfirm={() => toggle(confirm!)}
        />
      </DialogContent>
    </Dialog>
  )
}

/**
 * BreakoutPrompt is the forced prompt when breakouts close while the member
 * is in one (meeting.breakouts.updated with open false, which the app-level
 * live events write into the Meet Up): its only way out takes them back to
 * the main room.
 */
function BreakoutPrompt({ active, meeting: m }: { active: ActiveMeetup; meeting: Meeting }) {
  const { t } = useTranslation()
  const ctl = useMeetupRoom()
  const me = useCurrentUser()?.user.id ?? ''
  const [moving, setMoving] = useState(false)
  const closed = active.roomName !== m.roomId && !m.breakouts.open && !moving
  const back = async () => {
    setMoving(true)
    await active.room.localParticipant.setScreenShareEnabled(false).catch(() => undefined)
    try {
      await ctl.moveTo(await leaveBreakoutRoom(m.roomId, me))
    } finally {
      setMoving(false)
    }
  }
  return (
    <Dialog open={closed}>
      <DialogContent onEscapeKeyDown={(e) => e.preventDefault()} onPointerDownOutside={(e) => e.preventDefault()} hideClose>
        <DialogHeader>
          <DialogTitle>{t('meetups.room.breakout.closedTitle')}</DialogTitle>
          <DialogDescription>{t('meetups.room.breakout.closedBody')}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button type="button" onClick={() => void back()}>
            {t('meetups.room.breakout.back')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

/**
 * BreakoutsOpenPrompt asks a member in the main room, when the breakout
 * rooms open (meeting.breakouts.updated with open true, which the app-level
 * live events write into the Meet Up), to join one of them or stay; those
 * who run the breakouts opened them and are not asked.
 */
function BreakoutsOpenPrompt({ active, meeting: m }: { active: ActiveMeetup; meeting: Meeting }) {
  const { t } = useTranslation()
  const ctl = useMeetupRoom()
  const me = useCurrentUser()?.user.id ?? ''
  const perms = usePermissions(m.roomId).data
  const [asked, setAsked] = useState(false)
  const [moving, setMoving] = useState(false)
  const wasOpen = useRef(m.breakouts.open)
  const inMain = active.roomName === m.roomId
  useEffect(() => {
    if (m.breakouts.open && !wasOpen.current && inMain && perms && !perms.canManageBreakouts) setAsked(true)
    if (!m.breakouts.open) setAsked(false)
    wasOpen.current = m.breakouts.open
  }, [m.breakouts.open, inMain, perms])
  const join = async (name: string) => {
    setMoving(true)
    await active.room.localParticipant.setScreenShareEnabled(false).catch(() => undefined)
    try {
      await ctl.moveTo(await joinBreakoutRoom(m.roomId, name, me))
    } finally {
      setMoving(false)
      setAsked(false)
    }
  }
  const rooms = Object.entries(m.breakouts.rooms).sort((a, b) => a[1] - b[1])
  return (
    <Dialog open={asked && inMain && m.breakouts.open} onOpenChange={(o) => !o && setAsked(false)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('meetups.room.breakout.openedTitle')}</DialogTitle>
          <DialogDescription>{t('meetups.room.breakout.openedBody')}</DialogDescription>
        </DialogHeader>
        <ul className="grid gap-2">
          {rooms.map(([name]) => (
            <li key={name}>
              <Button type="button" variant="outline" className="w-full justify-start" disabled={moving} onClick={() => void join(name)}>
                <DoorOpen aria-hidden />
                {t('meetups.room.breakout.join', { name })}
              </Button>
            </li>
          ))}
        </ul>
        <DialogFooter>
          <Button type="button" variant="secondary" disabled={moving} onClick={() => setAsked(false)}>
            {t('meetups.room.breakout.stay')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

/** EndingSoon warns from 5 minutes before the Meet Up's end (spec 002 §4). */
function EndingSoon({ meeting: m }: { meeting: Meeting }) {
  const { t } = useTranslation()
  const at = endingSoonAt(m)
  const [soon, setSoon] = useState(() => Date.now() >= at)
  useEffect(() => {
    if (soon) return
    const id = setTimeout(() => setSoon(true), Math.min(Math.max(0, at - Date.now()), 2 ** 31 - 1))
    return () => clearTimeout(id)
  }, [at, soon])
  if (!soon) return null
  return (
    <p role="alert" className="rounded-md bg-amber-500/20 px-3 py-2 text-sm" data-testid="ending-soon">
      {t('meetups.room.endingSoon')}
    </p>
  )
}
