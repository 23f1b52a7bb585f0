import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useQueryClient } from '@tanstack/react-query'
import type { Room } from 'livekit-client'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { toast } from '@/components/ui/toast'
import { useHubEvents } from '@/lib/hub'
import { useCurrentUser } from '@/lib/session-context'
import { joinToken } from '../api/get-join-token'
import { meetingKeys } from '../api/keys'
import type { JoinToken, Meeting } from '../api/types'
import { applyMeetupChatEvent } from '../lib/chat-cache'
import { MeetupRoomContext, type ActiveMeetup, type MeetupRoomApi } from './context'
import { mediaErrorKey } from './media-errors'

export type MeetupRoomProviderProps = {
  children: ReactNode
  /** Makes the LiveKit room (tests give their own). */
  createRoom?: () => Room | Promise<Room>
}

// LiveKit's client loads when a Meet Up is joined, not with every page: the
// provider names its events and the room-deleted reason by value
// (RoomEvent.Disconnected, RoomEvent.AudioPlaybackStatusChanged,
// DisconnectReason.DUPLICATE_IDENTITY and ROOM_DELETED).
const DISCONNECTED = 'disconnected'
const AUDIO_PLAYBACK_CHANGED = 'audioPlaybackChanged'
const DUPLICATE_IDENTITY = 2
const ROOM_DELETED = 5

const newRoom = () => import('livekit-client').then(({ Room }) => new Room({ adaptiveStream: true, dynacast: true }))

/**
 * MeetupRoomProvider keeps the member's Meet Up connected while they move
 * around the app (spec 002 §2 "docked mini Meet Up bar"): it joins with a
 * token of POST /meetings/join-token and connects to the LiveKit URL it
 * names, moves between the main room and breakout rooms, applies the
 * Meet Up chat's live events (the chat is stored: its window reads it
 * when opened, so a member who comes back finds what was said) and marks
 * the chat unread when another's message comes while it is closed, and
 * shows the ended dialog when the room is deleted
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
  const qc = useQueryClient()
  const [chatOpen, setChatOpenState] = useState(false)
  const [chatUnread, setChatUnread] = useState(false)
  const chatOpenNow = useRef(false)
  const [ended, setEnded] = useState(false)
  const [audioBlocked, setAudioBlocked] = useState(false)
  const current = useRef<Room | null>(null)

  const setChatOpen = useCallback((open: boolean) => {
    chatOpenNow.current = open
    setChatOpenState(open)
    if (open) setChatUnread(false)
  }, [])
  const closeChat = useCallback(() => {
    chatOpenNow.current = false
    setChatOpenState(false)
    setChatUnread(false)
  }, [])

  // The chat's live events, for the Meet Up the member is in; the chat,
  // if read before a connection went live, is read again.
  const roomId = active?.meeting.roomId
  useHubEvents(
    roomId ? '*' : undefined,
    (m) => {
      const e = roomId ? applyMeetupChatEvent(qc, roomId, m) : undefined
      if (e?.kind === 'created' && !e.message.isMine && !chatOpenNow.current) setChatUnread(true)
    },
    (missed) => roomId && void qc.invalidateQueries({ queryKey: meetingKeys.chat(roomId), predicate: missed }),
  )

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
        closeChat()
        setAudioBlocked(false)
        if (reason === ROOM_DELETED) setEnded(true)
        if (reason === DUPLICATE_IDENTITY) toast({ title: t('meetups.room.otherDevice') })
      })
      room.on(AUDIO_PLAYBACK_CHANGED, () => {
        if (current.current === room) setAudioBlocked(!room.canPlaybackAudio)
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
    [createRoom, t, closeChat],
  )

  const join = useCallback(
    async (meeting: Meeting) => {
      if (!me || current.current) return
      // What was said while the member was away is read again when the chat opens.
      qc.removeQueries({ queryKey: meetingKeys.chat(meeting.roomId) })
      try {
        await connect(meeting, await joinToken(meeting.roomId, me.id))
      } catch (e) {
        console.warn('Meet Up: no join token', e)
        toast({ title: t('meetups.errors.unknown'), variant: 'destructive' })
      }
    },
    [me, connect, t, qc],
  )

  const leave = useCallback(async () => {
    const room = current.current
    current.current = null
    setActive(null)
    closeChat()
    setAudioBlocked(false)
    await room?.disconnect()
  }, [closeChat])

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

  const value = useMemo<MeetupRoomApi>(
    () => ({ active, join, leave, moveTo, chatOpen, setChatOpen, chatUnread }),
    [active, join, leave, moveTo, chatOpen, setChatOpen, chatUnread],
  )
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
