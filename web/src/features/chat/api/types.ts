import type { Schemas } from '@/api/client'

// The private chat's types, as the server's OpenAPI document gives them.
export type ReactionKind = Schemas['ReactionKind']
export type Peer = Schemas['Peer']
export type ChatMessage = Schemas['ChatMessage']
export type ChatMessagePage = Schemas['ChatMessagePage']
export type PrivateChannel = Schemas['PrivateChannel']
export type PrivateChannelList = Schemas['PrivateChannelList']
export type ChatMessageCreateRequest = Schemas['ChatMessageCreateRequest']
export type ChatMessageUpdateRequest = Schemas['ChatMessageUpdateRequest']
