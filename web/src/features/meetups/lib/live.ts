import type { QueryClient } from '@tanstack/react-query'
import type { HubMessage } from '@/lib/hub'
import { meetingKeys } from '../api/keys'
import { dropMeeting, setPostMeeting, storeMeeting } from './meeting-cache'
import type { Meeting, MinutesState } from '../api/types'

// The Meet Up live events of contract 18 (context key meeting:<roomId>),
// applied to the cached Meet Ups, their lists and the feed's posts.

export const MEETING_EVENTS = {
  created: 'meeting.created',
  updated: 'meeting.updated',
  ended: 'meeting.ended',
  deleted: 'meeting.deleted',
  inviteesAdded: 'meeting.invitees.added',
  inviteesRemoved: 'meeting.invitees.removed',
  inviteesResponded: 'meeting.invitees.responded',
  breakoutsUpdated: 'meeting.breakouts.updated',
  minutesUpdated: 'meeting.minutes.updated',
} as const

export type MeetingEvent =
  | { kind: 'meeting'; event: string; meeting: Meeting }
  | { kind: 'deleted'; roomId: string; postId: string; seriesId: string }
  | { kind: 'invitees'; roomId: string }
  | { kind: 'breakouts'; roomId: string; open: boolean }
  | { kind: 'minutes'; roomId: string; postId: string; state: MinutesState }

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null
const isStr = (v: unknown): v is string => typeof v === 'string'

/** readMeetingEvent reads a hub message as a Meet Up event, or undefined for any other. */
export function readMeetingEvent(m: HubMessage): MeetingEvent | undefined {
  const p = isObj(m.data) ? (m.data as { payload?: unknown }).payload : undefined
  if (!isObj(p) || !isStr(p.roomId)) return undefined
  switch (m.event) {
    case MEETING_EVENTS.created:
    case MEETING_EVENTS.updated:
    case MEETING_EVENTS.ended:
      if (!isStr(p.postId) || !isStr(p.updatedOn)) return undefined
      return { kind: 'meeting', event: m.event, meeting: p as unknown as Meeting }
    case MEETING_EVENTS.deleted:
      return { kind: 'deleted', roomId: p.roomId, postId: String(p.postId ?? ''), seriesId: String(p.seriesId ?? '') }
    case MEETING_EVENTS.inviteesAdded:
    case MEETING_EVENTS.inviteesRemoved:
    case MEETING_EVENTS.inviteesResponded:
      return { kind: 'invitees', roomId: p.roomId }
    case MEETING_EVENTS.breakoutsUpdated:
      return { kind: 'breakouts', roomId: p.roomId, open: p.open === true }
    case MEETING_EVENTS.minutesUpdated:
      return { kind: 'minutes', roomId: p.roomId, postId: String(p.postId ?? ''), state: (p.state ?? null) as MinutesState }
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
      if (e.event !== MEETING_EVENTS.updated) void qc.invalidateQueries({ queryKey: meetingKeys.lists })
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
