import type { Schemas } from '@/api/client'

// The Meet Up shapes of contract 18, as the server's OpenAPI document
// (httpapi/openapi/openapi.yaml) gives them, with the names the screens use.

export type MeetupResponse = null | 'yes' | 'no' | 'registered' | 'waitlisted'
export type MeetupRole = 'host' | 'moderator' | 'member'
export type InviteeRole = 'member' | 'moderator'
export type MinutesState = null | 'started' | 'compiling' | 'completed' | 'canceled' | 'failed'
export const DURATIONS = [15, 30, 45, 60, 90, 120] as const
export type Duration = (typeof DURATIONS)[number]

export type Meeting = Schemas['Meeting']
/** The form as sent: every field given (the API's schema leaves them optional to report each missing one). */
export type MeetingForm = Required<Omit<Schemas['MeetingForm'], 'duration'>> & { duration: Duration }
export type Breakouts = Schemas['Breakouts']
export type Permissions = Schemas['MeetingPermissions']
export type JoinToken = Schemas['JoinToken']
export type MeetingList = Schemas['MeetingList']

/** A Meet Up post: a feed Thread whose meeting is set. */
export type MeetupThread = Schemas['Thread']

/** meetingOf is the Meet Up of a post, or null for another kind of post. */
export const meetingOf = (thread: { meeting?: unknown }): Meeting | null => {
  const m = thread.meeting as Meeting | null | undefined
  return m && typeof m === 'object' && typeof m.roomId === 'string' ? m : null
}

// The Meet Up chat's messages are the private chat's (ChatMessage), under the Meet Up's path.
export type ChatMessage = Schemas['ChatMessage']
export type ChatMessagePage = Schemas['ChatMessagePage']
export type ReactionKind = Schemas['ReactionKind']
