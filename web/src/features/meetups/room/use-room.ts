import { useEffect, useLayoutEffect, useReducer, useState, type RefObject } from 'react'
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

/** A box's size in whole CSS pixels. */
export type Size = { width: number; height: number }

/**
 * useSize is el's size, kept as it changes (a ResizeObserver), or null
 * while it has none (not laid out yet, or in a test's DOM, which lays
 * nothing out). The element's size must not follow its content's, or the
 * two would chase each other.
 */
export function useSize(ref: RefObject<HTMLElement | null>): Size | null {
  const [size, setSize] = useState<Size | null>(null)
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return
    const read = () => {
      const r = el.getBoundingClientRect()
      const next = { width: Math.floor(r.width), height: Math.floor(r.height) }
      setSize((s) => (next.width <= 0 || next.height <= 0 ? null : s && s.width === next.width && s.height === next.height ? s : next))
    }
    read()
    if (typeof ResizeObserver === 'undefined') return
    const ro = new ResizeObserver(read)
    ro.observe(el)
    return () => ro.disconnect()
  }, [ref])
  return size
}

/**
 * useLastSpeaker is the identity of the other participant who spoke last
 * (LiveKit's active speakers, the member themselves left out): the one the
 * speaker layout shows large, kept while nobody speaks.
 */
export function useLastSpeaker(room: Room): string | undefined {
  const [id, setId] = useState<string>()
  useEffect(() => {
    const on = (speakers: Participant[]) => {
      const s = speakers.find((p) => p !== room.localParticipant && isPeer(p))
      if (s) setId(s.identity)
    }
    room.on(RoomEvent.ActiveSpeakersChanged, on)
    return () => {
      room.off(RoomEvent.ActiveSpeakersChanged, on)
    }
  }, [room])
  return id
}

/** The Meet Up screen's layout (a kept setting): the gallery, or the speaker large with the others in a strip. */
export type StageLayout = 'gallery' | 'speaker'
export const layoutStore = persistedStore<StageLayout>('meetups.layout', { fallback: 'gallery', parse: (raw) => (raw === 'speaker' || raw === 'gallery' ? raw : undefined) })

/** The mirror video setting (spec 002 §3 "Local settings"), default on, kept in this browser. */
const MIRROR_KEY = 'meetups.mirrorVideo'
/** mirrorStore keeps the mirror setting as 'true' or 'false'; anything but 'false' is on. */
export const mirrorStore = persistedStore(MIRROR_KEY, { fallback: true, parse: (raw) => raw !== 'false' })
/** readMirror is whether the member's own video is mirrored. */
export const readMirror = mirrorStore.get
