import { createContext, useContext } from 'react'
import type { Room } from 'livekit-client'
import type { JoinToken, Meeting } from '../api/types'

/** The Meet Up the member is in, kept by the app-level MeetupRoomProvider while they move around the app. */
export type ActiveMeetup = {
  meeting: Meeting
  room: Room
  /** The LiveKit room joined: the Meet Up's, or one of its breakout rooms (`<roomId>:<i>`). */
  roomName: string
  state: 'connecting' | 'connected'
}

export type MeetupRoomApi = {
  active: ActiveMeetup | null
  /** join asks for a token and connects (the caller has checked the time and that no other Meet Up is on). */
  join: (m: Meeting) => Promise<void>
  leave: () => Promise<void>
  /** moveTo reconnects to another room of the Meet Up with a token the API gave (a breakout, or back). */
  moveTo: (token: JoinToken) => Promise<void>
  /** Whether the Meet Up chat's window is open: the provider keeps it, for the unread dot. */
  chatOpen?: boolean
  setChatOpen?: (open: boolean) => void
  /** A message of another participant came while the chat was closed. */
  chatUnread?: boolean
}

export const MeetupRoomContext = createContext<MeetupRoomApi>({
  active: null,
  join: async () => {},
  leave: async () => {},
  moveTo: async () => {},
})

export const useMeetupRoom = () => useContext(MeetupRoomContext)
