import type { QueryClient } from '@tanstack/react-query'
import { HUB_EVENTS, liveEvent, type HubMessage } from '@/api/hub-events'
import { meetingKeys } from '../api/keys'
import { dropMeeting, setPostMeeting, storeMeeting } from './meeting-cache'
import type { Meeting, MinutesState } from '../api/types'

// The Meet Up live events of contract 18 (context key meeting:<roomId>),
// applied to the cached Meet Ups, their lists and the feed's posts.

export type MeetingEvent =
  | { kind: 'meeting'; event: typeof HUB_EVENTS.meetingCreated | typeof HUB_EVENTS.meetingUpdated | typeof HUB_EVENTS.meetingEnded; meeting: Meeting }
  | { kind: 'deleted'; roomId: string; postId: string; seriesId: string }
  | { kind: 'invitees'; roomId: string }
  | { kind: 'breakouts'; roomId: string; open: boolean }
  | { kind: 'minutes'; roomId: string; postId: string; state: MinutesState }

const isStr = (v: unknown): v is string => typeof v === 'string'

/** readMeetingEvent reads a hub message as a Meet Up event, or undefined for any other. */
export function readMeetingEvent(m: HubMessage): MeetingEvent | undefined {
  const e = liveEvent(m)
  if (!e || !('roomId' in e.payload) || !isStr(e.payload.roomId)) return undefined
  switch (e.event) {
    case HUB_EVENTS.meetingCreated:
    case HUB_EVENTS.meetingUpdated:
    case HUB_EVENTS.meetingEnded:
      if (!isStr(e.payload.postId) || !isStr(e.payload.updatedOn)) return undefined
      return { kind: 'meeting', event: e.event, meeting: e.payload }
    case HUB_EVENTS.meetingDeleted:
      return { kind: 'deleted', roomId: e.payload.roomId, postId: String(e.payload.postId ?? ''), seriesId: String(e.payload.seriesId ?? '') }
    case HUB_EVENTS.meetingInviteesAdded:
    case HUB_EVENTS.meetingInviteesRemoved:
    case HUB_EVENTS.meetingInviteesResponded:
      return { kind: 'invitees', roomId: e.payload.roomId }
    case HUB_EVENTS.meetingBreakoutsUpdated:
      return { kind: 'breakouts', roomId: e.payload.roomId, open: e.payload.open === true }
    case HUB_EVENTS.meetingMinutesUpdated:
      return { kind: 'minutes', roomId: e.payload.roomId, postId: String(e.payload.postId ?? ''), state: e.payload.state ?? null }
    default:
      return undefined
  }
}

/** applyMeetingEvent brings the caches up to date with e. */
export function applyMeetingEvent(qc: QueryClient, e: MeetingEvent) {
  switch (e.kind) {
    case 'meeting':
      storeMeeting(qc, e.meeting)
      // A new or changed Meet Up may enter or leave the upcoming lists.
      if (e.event !== HUB_EVENTS.meetingUpdated) void qc.invalidateQueries({ queryKey: meetingKeys.lists })
      return
    case 'deleted':
      dropMeeting(qc, e.roomId)
      return
    case 'invitees':
      void qc.invalidateQueries({ queryKey: meetingKeys.one(e.roomId), exact: true })
      void qc.invalidateQueries({ queryKey: meetingKeys.permissions(e.roomId) })
      void qc.invalidateQueries({ queryKey: meetingKeys.lists })
      return
    case 'breakouts':
      qc.setQueryData<Meeting>(meetingKeys.one(e.roomId), (m) => (m ? { ...m, breakouts: { ...m.breakouts, open: e.open } } : m))
      void qc.invalidateQueries({ queryKey: meetingKeys.breakouts(e.roomId) })
      return
    case 'minutes':
      if (e.postId) setPostMeeting(qc, e.postId, (m) => ({ ...m, minutes: { ...m.minutes, state: e.state } }))
      qc.setQueryData<Meeting>(meetingKeys.one(e.roomId), (m) => (m ? { ...m, minutes: { ...m.minutes, state: e.state } } : m))
      // The content comes with the Meet Up itself (only invitees may read it).
      void qc.invalidateQueries({ queryKey: meetingKeys.one(e.roomId), exact: true })
      return
  }
}
