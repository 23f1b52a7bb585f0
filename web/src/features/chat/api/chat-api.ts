import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import type { ChatMessage, ChatMessageCreateRequest, ChatMessageUpdateRequest, PrivateChannelList, ReactionKind } from './types'
import { addMessage, chatKeys, removeMessage, replaceMessage, setChannelSeen } from '../lib/chat-cache'

/** The chat's page sizes (spec 002 §9): 20 messages; the channels, at most 100, for the unread dots. */
export const MESSAGES_PAGE = 20
export const CHANNELS_PAGE = 100

/** The caller's private channels, latest activity first. */
export const channelsQuery = () =>
  queryOptions({
    queryKey: chatKeys.channels,
    queryFn: async ({ signal }): Promise<PrivateChannelList> =>
      unwrap(await api.GET('/api/channels/private', { params: { query: { page: 1, pageSize: CHANNELS_PAGE } }, signal })),
  })

/** The caller's channel with a peer, however many channels they have: one result, or none before the first message. */
export const peerChannelQuery = (peerId: string) =>
  queryOptions({
    queryKey: chatKeys.peerChannel(peerId),
    queryFn: async ({ signal }): Promise<PrivateChannelList> =>
      unwrap(await api.GET('/api/channels/private', { params: { query: { peerId, pageSize: 1 } }, signal })),
  })

/** A conversation, newest first page by page; the next page is what came before the oldest loaded. */
export const messagesQuery = (channelId: string) =>
  infiniteQueryOptions({
    queryKey: chatKeys.messages(channelId),
    initialPageParam: undefined as string | undefined,
    queryFn: async ({ pageParam, signal }) =>
      unwrap(
        await api.GET('/api/channels/private/{channelId}/threads', {
          params: { path: { channelId }, query: { pageSize: MESSAGES_PAGE, ...(pageParam ? { createdBefore: pageParam } : {}) } },
          signal,
        }),
      ),
    getNextPageParam: (last) => (last.results.length < MESSAGES_PAGE ? undefined : last.results.reduce((min, m) => (m.createdOn < min ? m.createdOn : min), last.results[0]!.createdOn)),
  })

/** useSendMessage sends a message to the peer; the answer joins its conversation (a new channel: the channels are read again). */
export function useSendMessage() {
  const qc = useQueryClient()
  return useMutation({
    // The editor shows why a message was not sent.
    meta: { silent: true },
    mutationFn: async (body: ChatMessageCreateRequest) => unwrap(await api.POST('/api/threads/private', { body })),
    onSuccess: (m) => {
      addMessage(qc, m)
      void qc.invalidateQueries({ queryKey: chatKeys.channels })
    },
  })
}

export function useEditMessage() {
  const qc = useQueryClient()
  return useMutation({
    meta: { silent: true },
    mutationFn: async ({ id, body }: { id: string; body: ChatMessageUpdateRequest }) =>
      unwrap(await api.PATCH('/api/threads/private/{threadId}', { params: { path: { threadId: id } }, body })),
    onSuccess: (m) => replaceMessage(qc, m),
  })
}

export function useDeleteMessage() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async (m: ChatMessage) => {
      unwrap(await api.DELETE('/api/threads/private/{threadId}', { params: { path: { threadId: m.id } } }))
      return m
    },
    onSuccess: (m) => {
      removeMessage(qc, m.channelId, m.id)
      void qc.invalidateQueries({ queryKey: chatKeys.channels })
    },
  })
}

export function useReactToMessage() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async ({ id, reaction }: { id: string; reaction: ReactionKind | null }) =>
      unwrap(await api.PUT('/api/threads/private/{threadId}/reaction', { params: { path: { threadId: id } }, body: { reaction } })),
    onSuccess: (m) => replaceMessage(qc, m),
  })
}

/** useMarkSeen marks a conversation seen: its unread dot goes at once. */
export function useMarkSeen() {
  const qc = useQueryClient()
  return useMutation({
    // Marking seen happens in the background; a failure leaves the dot, nothing to tell.
    meta: { silent: true },
    mutationFn: async (channelId: string) => {
      unwrap(await api.POST('/api/channels/private/{channelId}/seen', { params: { path: { channelId } } }))
      return channelId
    },
    onSuccess: (channelId) => setChannelSeen(qc, channelId, new Date().toISOString()),
  })
}
