import type { Schemas } from '@/api/client'

// The notifications list's types as the contract of issue 17 gives them.
// GET /api/notifications is not in the generated schema yet; when it is,
// each type below becomes the generated one and NotificationPaths the
// generated paths.

type Timestamp = Schemas['Timestamp']

// contract-17: replaced by Schemas['Notification'] when the API lands
export type Notification = {
  id: string
  type: 'comment' | 'mention'
  createdOn: Timestamp
  /** null when the author is anonymous. */
  author: { userId: string; firstName: string; lastName: string; avatar: string | null } | null
  raw: string
  context: { communityId: string; seriesId: string; seriesName: string }
  postId: string
  /** The id is in notifications.posts.read. */
  isRead: boolean
  /** Created after notifications.posts.lastSeenAt and not read. */
  isUnread: boolean
}

// contract-17: replaced by Schemas['NotificationList'] when the API lands
export type NotificationList = { results: Notification[]; total: number; unread: number }

type Json<T> = { content: { 'application/json': T } }
type Ok<T> = { headers: { [name: string]: unknown } } & Json<T>
type Err = { headers: { [name: string]: unknown } } & Json<Schemas['Error']>
type Unused = { put?: never; post?: never; delete?: never; get?: never; patch?: never; options?: never; head?: never; trace?: never }

// contract-17: replaced by the generated paths when the API lands
export type NotificationPaths = {
  '/api/notifications': { parameters: { query?: never; header?: never; path?: never; cookie?: never } } & Omit<Unused, 'get'> & {
      get: {
        parameters: { query?: { page?: number; pageSize?: number }; header?: never; path?: never; cookie?: never }
        requestBody?: never
        responses: { 200: Ok<NotificationList>; default: Err }
      }
    }
}
