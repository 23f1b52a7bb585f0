import { useCallback } from 'react'
import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query'
import type { Question } from '../api/ai-search'

const NONE: Question[] = []

/** conversationKey: ['ai-search', channelId, 'conversation'], the questions asked in a channel's AI search. */
export const conversationKey = (channelId: string) => ['ai-search', channelId, 'conversation'] as const

/**
 * useConversation keeps the questions of a channel's AI search in the query
 * cache rather than in the component: a member who opens a cited post and
 * comes back finds the conversation (and its cached answers) where it was.
 * Nothing is fetched; the session's end clears it with the rest of the cache.
 */
export function useConversation(channelId: string): [Question[], (next: Question[]) => void] {
  const queryClient = useQueryClient()
  const key = conversationKey(channelId)
  const q = useQuery<Question[]>({ queryKey: key, queryFn: skipToken, initialData: NONE, staleTime: Infinity, gcTime: Infinity })
  const set = useCallback((next: Question[]) => queryClient.setQueryData<Question[]>(conversationKey(channelId), next), [queryClient, channelId])
  return [q.data ?? NONE, set]
}
