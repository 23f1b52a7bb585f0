import type { Schemas } from '@/api/client'

// The private chat's types as the contract of issue 16 gives them (and the
// chat server's OpenAPI document words them). Its routes are not in the
// generated schema yet; when they are, each type below becomes the
// generated one and ChatPaths the generated paths.

type Timestamp = Schemas['Timestamp']
export type ReactionKind = Schemas['ReactionKind']
export type Peer = Schemas['Peer']

// contract-16: replaced by Schemas['ChatMessage'] when the API lands
export type ChatMessage = {
  id: string
  channelId: string
  creatorId: string
  creator: { userId: string; firstName: string; lastName: string; avatar: string | null }
  raw: string
  image: Schemas['ThreadImage'] | null
  link: Schemas['ThreadLink'] | null
  file: Schemas['ThreadFile'] | null
  createdOn: Timestamp
  updatedOn: Timestamp
  /** Each member's reaction, by user id. */
  reactions: { [userId: string]: ReactionKind }
  isMine: boolean
}

// contract-16: replaced by Schemas['ChatMessagePage'] when the API lands
export type ChatMessagePage = { results: ChatMessage[]; total: number }

// contract-16: replaced by Schemas['PrivateChannel'] when the API lands
export type PrivateChannel = {
  id: string
  memberIds: string[]
  peer: Peer
  hasUnread: boolean
  latestThread: { id: string; creatorId: string; raw: string; createdOn: Timestamp } | null
  lastSeenOn: Timestamp | null
  lastActivityOn: Timestamp | null
}

// contract-16: replaced by Schemas['PrivateChannelList'] when the API lands
export type PrivateChannelList = { results: PrivateChannel[]; total: number }

// contract-16: replaced by Schemas['Personalization'] when the API lands
export type Personalization = { [key: string]: unknown }

type Body = Pick<ChatMessage, 'image' | 'link' | 'file'>
// contract-16: replaced by Schemas['ChatMessageCreateRequest'] when the API lands
export type ChatMessageCreateRequest = { memberIds: string[]; raw?: string } & Partial<Body>
// contract-16: replaced by Schemas['ChatMessageUpdateRequest'] when the API lands
export type ChatMessageUpdateRequest = { raw?: string } & Partial<Body>

type Json<T> = { content: { 'application/json': T } }
type Ok<T> = { headers: { [name: string]: unknown } } & Json<T>
type NoContent = { headers: { [name: string]: unknown }; content?: never }
type Err = { headers: { [name: string]: unknown } } & Json<Schemas['Error']>
type Op<P, B, R> = { parameters: P; responses: R } & ([B] extends [undefined] ? { requestBody?: never } : { requestBody: Json<B> })
type Path<Id extends string> = { query?: never; header?: never; path: { [k in Id]: string }; cookie?: never }
type NoParams = { query?: never; header?: never; path?: never; cookie?: never }
type Unused = { put?: never; post?: never; delete?: never; get?: never; patch?: never; options?: never; head?: never; trace?: never }
/** Route is a path's entry: the methods M and none other, as the generator writes them. */
type Route<M> = { parameters: { query?: never; header?: never; path?: never; cookie?: never } } & Omit<Unused, keyof M> & M

// contract-16: replaced by the generated paths when the API lands
export type ChatPaths = {
  '/api/threads/private': Route<{ post: Op<NoParams, ChatMessageCreateRequest, { 201: Ok<ChatMessage>; default: Err }> }>
  '/api/threads/private/{threadId}': Route<{
    patch: Op<Path<'threadId'>, ChatMessageUpdateRequest, { 200: Ok<ChatMessage>; default: Err }>
    delete: Op<Path<'threadId'>, undefined, { 204: NoContent; default: Err }>
  }>
  '/api/threads/private/{threadId}/reaction': Route<{
    put: Op<Path<'threadId'>, { reaction: ReactionKind | null }, { 200: Ok<ChatMessage>; default: Err }>
  }>
  '/api/channels/private': Route<{
    get: Op<{ query?: { page?: number; pageSize?: number }; header?: never; path?: never; cookie?: never }, undefined, { 200: Ok<PrivateChannelList>; default: Err }>
  }>
  '/api/channels/private/{channelId}/threads': Route<{
    get: Op<
      { query?: { createdBefore?: string; pageSize?: number }; header?: never; path: { channelId: string }; cookie?: never },
      undefined,
      { 200: Ok<ChatMessagePage>; default: Err }
    >
  }>
  '/api/channels/private/{channelId}/seen': Route<{ post: Op<Path<'channelId'>, undefined, { 204: NoContent; default: Err }> }>
  '/api/users/{userId}/personalization': Route<{
    get: Op<Path<'userId'>, undefined, { 200: Ok<Personalization>; default: Err }>
    patch: Op<Path<'userId'>, Personalization, { 200: Ok<Personalization>; default: Err }>
  }>
}
