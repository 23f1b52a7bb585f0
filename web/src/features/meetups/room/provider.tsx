import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { RemoteParticipant, Room } from 'livekit-client'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { toast } from '@/components/ui/toast'
import { useCurrentUser } from '@/lib/session-context'
import { joinToken } from '../api/get-join-token'
import type { JoinToken, Meeting } from '../api/types'
import { CHAT_TOPIC, decodeChat, encodeChat, reduceChat, type ChatData, type ChatMessage } from './chat'
import { MeetupRoomContext, type ActiveMeetup, type MeetupRoomApi } from './context'
import { mediaErrorKey } from './media-errors'

export type MeetupRoomProviderProps = {
  children: ReactNode
  /** Makes the LiveKit room (tests give their own). */
  createRoom?: () => Room | Promise<Room>
}

// LiveKit's client loads when a Meet Up is joined, not with every page: the
// provider names its events and the room-deleted reason by value
// (RoomEvent.Disconnected, RoomEvent.DataReceived, RoomEvent.AudioPlaybackStatusChanged,
// DisconnectReason.DUPLICATE_IDENTITY and ROOM_DELETED).
const DISCONNECTED = 'disconnected'
const DATA_RECEIVED = 'dataReceived'
const AUDIO_PLAYBACK_CHANGED = 'audioPlaybackChanged'
const DUPLICATE_IDENTITY = 2
const ROOM_DELETED = 5

const newRoom = () => import('livekit-client').then(({ Room }) => new Room({ adaptiveStream: true, dynacast: true }))

/**
 * MeetupRoomProvider keeps the member's Meet Up connected while they move
 * around the app (spec 002 §2 "docked mini Meet Up bar"): it joins with a
 * token of POST /meetings/join-token and connects to the LiveKit URL it
 * names, moves between the main room and breakout rooms, keeps the
 * in-meeting chat, and shows the ended dialog when the room is deleted
 * (the Meet Up was ended for all). Joining from another device makes
 * LiveKit drop this one (spec 002 §4), which then says so rather than
 * vanishing without a word. Members join with the microphone and
 * camera off: nothing is published until they turn them on. When the
 * browser blocks the room's audio (autoplay without a gesture), a dialog
 * with one button gives the gesture that starts it (spec 002 §4).
 */
export function MeetupRoomProvider({ children, createRoom = newRoom }: MeetupRoomProviderProps) {
  const { t } = useTranslation()
  const me = useCurrentUser()?.user
  const [active, setActive] = useState<ActiveMeetup | null>(null)
  const [chat, setChat] = useState<ChatMessage[]>([])
  const [ended, setEnded] = useState(false)
  const [audioBlocked, setAudioBlocked] = useState(false)
  const current = useRef<Room | null>(null)

  const connect = useCallback(
    async (meeting: Meeting, tok: JoinToken) => {
      const room = await createRoom()
      current.current = room
      setActive({ meeting, room, roomName: tok.room, state: 'connecting' })
      room.on(DISCONNECTED, (reason?: number) => {
        // A room left on purpose (leave, a move) is no longer current.
        if (current.current !== room) return
        current.current = null
        setActive(null)
        setChat([])
        setAudioBlocked(false)
        if (reason === ROOM_DELETED) setEnded(true)
        if (reason === DUPLICATE_IDENTITY) toast({ title: t('meetups.room.otherDevice') })
      })
      room.on(AUDIO_PLAYBACK_CHANGED, () => {
        if (current.current === room) setAudioBlocked(!room.canPlaybackAudio)
      })
      room.on(DATA_RECEIVED, (payload: Uint8Array, participant?: RemoteParticipant, _kind?: unknown, topic?: string) => {
        if (topic !== CHAT_TOPIC || !participant) return
        const d = decodeChat(payload)
        if (d) setChat((list) => reduceChat(list, d, participant.identity))
      })
      try {
        await room.connect(tok.url, tok.token)
        if (current.current === room) setActive({ meeting, room, roomName: tok.room, state: 'connected' })
      } catch (e) {
        console.warn('Meet Up: not connected', e)
        if (current.current === room) {
          current.current = null
          setActive(null)
        }
        const key = mediaErrorKey(e, 'connection')
        if (key) toast({ title: t(key), variant: 'destructive' })
      }
    },
    [createRoom, t],
  )

  const join = useCallback(
    async (meeting: Meeting) => {
      if (!me || current.current) return
      try {
        await connect(meeting, await joinToken(meeting.roomId, me.id))
      } catch (e) {
        console.warn('Meet Up: no join token', e)
        toast({ title: t('meetups.errors.unknown'), variant: 'destructive' })
      }
    },
    [me, connect, t],
  )

  const leave = useCallback(async () => {
    const room = current.current
    current.current = null
    setActive(null)
    setChat([])
    setAudioBlocked(false)
    await room?.disconnect()
  }, [])

  const moveTo = useCallback(
    async (tok: JoinToken) => {
      const meeting = active?.meeting
      const old = current.current
      if (!meeting || !old) return
      current.current = null
      await old.disconnect()
      await connect(meeting, tok)
    },
    [active, connect],
  )

  const sendChat = useCallback(
    async (d: ChatData) => {
      const room = current.current
      if (!room || !me) return
      await room.localParticipant.publishData(encodeChat(d), { reliable: true, topic: CHAT_TOPIC })
      setChat((list) => reduceChat(list, d, me.id))
    },
    [me],
  )

  // Signing out, or leaving the app, ends the connection.
  useEffect(() => () => void current.current?.disconnect(), [])
  useEffect(() => {
    if (!me) void current.current?.disconnect()
  }, [me])

  // The click on the dialog's button is the gesture the browser waits for.
  const startAudio = () => {
    const room = current.current
    setAudioBlocked(false)
    room?.startAudio().then(
      () => current.current === room && setAudioBlocked(!room.canPlaybackAudio),
      (e: unknown) => console.warn('Meet Up: audio not started', e),
    )
  }

  const value = useMemo<MeetupRoomApi>(() => ({ active, join, leave, moveTo, chat, sendChat }), [active, join, leave, moveTo, chat, sendChat])
  return (
    <MeetupRoomContext.Provider value={value}>
      {children}
      <Dialog open={ended} onOpenChange={setEnded}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{t('meetups.room.endedTitle')}</DialogTitle>
            <DialogDescription>{t('meetups.room.endedBody')}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button type="button" onClick={() => setEnded(false)}>
              {t('meetups.ok')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <Dialog open={audioBlocked && !!active}>
        <DialogContent onEscapeKeyDown={(e) => e.preventDefault()} onPointerDownOutside={(e) => e.preventDefault()} hideClose>
          <DialogHeader>
            <DialogTitle>{t('meetups.room.audioBlockedTitle')}</DialogTitle>
            <DialogDescription>{t('meetups.room.audioBlockedBody')}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button type="button" onClick={startAudio}>
              {t('meetups.room.audioBlockedConfirm')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </MeetupRoomContext.Provider>
  )
}
