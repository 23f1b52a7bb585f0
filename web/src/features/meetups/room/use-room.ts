import { useEffect, useReducer, useState } from 'react'
import { RoomEvent, Track, type Participant, type Room } from 'livekit-client'
import { persistedStore } from '@/lib/persisted-store'

const EVENTS = [
  RoomEvent.ParticipantConnected,
  RoomEvent.ParticipantDisconnected,
  RoomEvent.TrackSubscribed,
  RoomEvent.TrackUnsubscribed,
  RoomEvent.TrackMuted,
  RoomEvent.TrackUnmuted,
  RoomEvent.LocalTrackPublished,
  RoomEvent.LocalTrackUnpublished,
  RoomEvent.ActiveSpeakersChanged,
  RoomEvent.ParticipantNameChanged,
] as const

/** useRoomChanges re-renders on the room's participant and track events. */
export function useRoomChanges(room: Room) {
  const [, tick] = useReducer((n: number) => n + 1, 0)
  useEffect(() => {
    for (const e of EVENTS) room.on(e, tick)
    return () => {
      for (const e of EVENTS) room.off(e, tick)
    }
  }, [room])
}

/** The recorder (recorder:<roomId>) is a hidden participant, never a peer. */
export const isPeer = (p: Participant) => !p.identity.startsWith('recorder:')

/** peersOf is the local participant, then the others, in the room's order. */
export const peersOf = (room: Room): Participant[] => [room.localParticipant, ...Array.from(room.remoteParticipants.values()).filter(isPeer)]

export const isOn = (p: Participant, source: Track.Source) => {
  const pub = p.getTrackPublication(source)
  return !!pub && !pub.isMuted && !!pub.track
}

/** useWidth is the window's width, kept as it resizes. */
export function useWidth() {
  const [w, setW] = useState(() => window.innerWidth)
  useEffect(() => {
    const on = () => setW(window.innerWidth)
    window.addEventListener('resize', on)
    return () => window.removeEventListener('resize', on)
  }, [])
  return w
}

/** The mirror video setting (spec 002 §3 "Local settings"), default on, kept in this browser. */
const MIRROR_KEY = 'meetups.mirrorVideo'
/** mirrorStore keeps the mirror setting as 'true' or 'false'; anything but 'false' is on. */
export const mirrorStore = persistedStore(MIRROR_KEY, { fallback: true, parse: (raw) => raw !== 'false' })
/** readMirror is whether the member's own video is mirrored. */
export const readMirror = mirrorStore.get
