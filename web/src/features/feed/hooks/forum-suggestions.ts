import { useMemo } from 'react'
import type { MessageSuggestions } from '@/components/message-editor/message-editor'
import { useHashtags } from '../api/hashtags'
import { useMentionCandidates } from '../api/mention-candidates'

/**
 * forumSuggestions is what a forum's message editors suggest (spec 001 §5
 * "Mentions and hashtags"): after '@' the forum's members with an account,
 * after '#' the server's hashtags. Both keep the previous answer up while
 * the next one loads.
 */
export const forumSuggestions = (seriesId: string): MessageSuggestions => ({
  useMentions: (query, enabled) => {
    const q = useMentionCandidates(seriesId, query, enabled)
    return { items: q.data?.results, placeholder: q.isPlaceholderData }
  },
  useHashtags: (query, enabled) => {
    const q = useHashtags(query, enabled)
    return { items: q.data?.tags, placeholder: q.isPlaceholderData }
  },
})

/** useForumSuggestions is forumSuggestions kept for as long as the forum is the same. */
export const useForumSuggestions = (seriesId: string) => useMemo(() => forumSuggestions(seriesId), [seriesId])
