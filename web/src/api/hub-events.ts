import type { Schemas } from './client'

// The live events of GET /api/hub, as the OpenAPI document declares them:
// LivePayloads there lists every event's name with the schema of its
// payload, so the names and payload types here come from the contract, and
// the readers across the app (the feed, the chat, Meet Ups, presence,
// notifications, the shell) take them from here rather than spelling them.

/** HubMessage is one message of the hub's WebSocket. */
export type HubMessage = Schemas['HubMessage']
/** LivePayloads is each live event's payload type, by event name. */
export type LivePayloads = Schemas['LivePayloads']
/** HubEvent is the name of a live event. */
export type HubEvent = keyof LivePayloads

/** HUB_EVENTS names every live event of the document, once. */
export const HUB_EVENTS = {
  userUpdated: 'user.updated',
  userConnected: 'user.connected',
  userDisconnected: 'user.disconnected',
  userStatus: 'user.status',
  presenceSettings: 'presence.settings',
  deploymentCompleted: 'application.deployment.completed',
  communityCreated: 'community.created',
  communityUpdated: 'community.updated',
  communityDeleted: 'community.deleted',
  communityMembersRemoved: 'community.members.removed',
  seriesDeleted: 'series.deleted',
  seriesMembersRemoved: 'series.members.removed',
  seriesMembersAdded: 'series.members.added',
  organizationCreated: 'organization.created',
  organizationUpdated: 'organization.updated',
  organizationDeleted: 'organization.deleted',
  // The forum's post events, and the private chat's message events: the
  // context key tells them apart (thread:<id>, channel:<id>).
  threadCreated: 'thread.created',
  threadUpdated: 'thread.updated',
  threadDeleted: 'thread.deleted',
  threadReacted: 'thread.reacted',
  replyCreated: 'thread.reply.created',
  replyUpdated: 'thread.reply.updated',
  replyDeleted: 'thread.reply.deleted',
  channelSeen: 'private.channel.seen',
  personalizationUpdated: 'user.personalization.updated',
  mentioned: 'user.mentioned',
  notified: 'user.notified',
  communityJoined: 'user.community.joined',
  replyNotice: 'channel.thread.reply.created',
  subscriptionCreated: 'user.subscription.created',
  meetingCreated: 'meeting.created',
  meetingUpdated: 'meeting.updated',
  meetingEnded: 'meeting.ended',
  meetingDeleted: 'meeting.deleted',
  meetingInviteesAdded: 'meeting.invitees.added',
  meetingInviteesRemoved: 'meeting.invitees.removed',
  meetingInviteesResponded: 'meeting.invitees.responded',
  meetingBreakoutsUpdated: 'meeting.breakouts.updated',
  meetingMinutesUpdated: 'meeting.minutes.updated',
} as const satisfies Record<string, HubEvent>

// An event the document adds and HUB_EVENTS lacks fails the typecheck here.
type Unnamed = Exclude<HubEvent, (typeof HUB_EVENTS)[keyof typeof HUB_EVENTS]>
const everyEventNamed: [Unnamed] extends [never] ? true : Unnamed = true
void everyEventNamed

const NAMES: ReadonlySet<string> = new Set(Object.values(HUB_EVENTS))

/** isHubEvent says whether name is a live event of the document. */
export const isHubEvent = (name: string): name is HubEvent => NAMES.has(name)

/** LiveEvent is a hub message of a known event with its payload typed: `event` narrows `payload`. */
export type LiveEvent = { [E in HubEvent]: { event: E; contextKey: string; payload: LivePayloads[E] } }[HubEvent]

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null

/**
 * liveEvent reads m as its event, or undefined: an event the document does
 * not name, or a payload that is not an object. The payload is typed as the
 * document says the server sends it, as the API's answers are; a reader
 * still checks the fields it relies on, since a node of another version
 * may send another shape.
 */
export function liveEvent(m: HubMessage): LiveEvent | undefined {
  const payload: unknown = isObject(m.data) ? (m.data as { payload?: unknown }).payload : undefined
  if (!isHubEvent(m.event) || !isObject(payload)) return undefined
  return { event: m.event, contextKey: m.contextKey, payload } as LiveEvent
}

/** payloadOf is m's payload when m is one of events (and its payload an object), else undefined. */
export function payloadOf<E extends HubEvent>(m: HubMessage, ...events: E[]): LivePayloads[E] | undefined {
  const e = liveEvent(m)
  return e && (events as HubEvent[]).includes(e.event) ? (e.payload as LivePayloads[E]) : undefined
}

/** LIVE_KEYS builds the context keys (`type:id`) the hub routes events by. */
export const LIVE_KEYS = {
  user: (id: string) => `user:${id}`,
  channel: (id: string) => `channel:${id}`,
}

/** keyId is the id of a context key, when its type is type (any type unless given). */
export function keyId(contextKey: string, type?: string): string | undefined {
  const i = contextKey.indexOf(':')
  if (i < 0 || (type !== undefined && contextKey.slice(0, i) !== type)) return undefined
  return contextKey.slice(i + 1)
}
