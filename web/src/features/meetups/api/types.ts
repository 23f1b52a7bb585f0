import type { Schemas } from '@/api/client'

// The Meet Up shapes of contract 18 (httpapi/openapi/openapi.yaml documents
// them on the server's side). Kept in this one file so that the generated
// schema types can take their place in one change.

export type MeetupResponse = null | 'yes' | 'no' | 'registered' | 'waitlisted'
export type MeetupRole = 'host' | 'moderator' | 'member'
export type InviteeRole = 'member' | 'moderator'
export type MinutesState = null | 'started' | 'compiling' | 'completed' | 'canceled' | 'failed'
export const DURATIONS = [15, 30, 45, 60, 90, 120] as const
export type Duration = (typeof DURATIONS)[number]

export type Meeting = {
  roomId: string
  postId: string
  seriesId: string
  creatorId: string
  name: string
  agenda: string
  startTime: string
  endTime: string
  createdOn: string
  updatedOn: string
  duration: Duration
  open: boolean
  seatCount: number | null
  seatsLeft: number | null
  invitees: Record<string, MeetupResponse>
  roles: Record<string, InviteeRole>
  waitlist: string[]
  breakouts: { open: boolean; rooms: Record<string, number> }
  minutes: { state: MinutesState; content: string | null; updatedOn: string | null }
  ended: boolean
  endedOn: string | null
  tag: string
  reminderAt: string
  context: { communityId: string; seriesId: string; seriesName: string }
  topicRoute: string
  postRoute: string
  myRole: MeetupRole | null
}

export type MeetingForm = {
  name: string
  agenda: string
  startTime: string
  duration: Duration
  open: boolean
  seatCount: number | null
  invitees: Record<string, InviteeRole>
  breakouts: string[]
}

export type Breakouts = { open: boolean; rooms: Record<string, number>; members: Record<string, string> }

export type Permissions = {
  role: MeetupRole | null
  canJoin: boolean
  canEdit: boolean
  canDelete: boolean
  canAddMembers: boolean
  canManageBreakouts: boolean
  canEndRoom: boolean
  canRecord: boolean
  canEditMinutes: boolean
  canSeeMinutes: boolean
}

export type JoinToken = { token: string; url: string; room: string; role: MeetupRole }

export type MeetingList = { results: Meeting[]; total: number }

/** A Meet Up post: a feed Thread whose meeting is set. */
export type MeetupThread = Omit<Schemas['Thread'], 'meeting'> & { meeting: Meeting | null }

/** meetingOf is the Meet Up of a post, or null for another kind of post. */
export const meetingOf = (thread: { meeting?: unknown }): Meeting | null => {
  const m = thread.meeting as Meeting | null | undefined
  return m && typeof m === 'object' && typeof m.roomId === 'string' ? m : null
}
