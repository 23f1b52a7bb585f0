import { useQueryClient } from '@tanstack/react-query'
import { useHubEvents } from '@/lib/hub'
import { applyFeedEvent, readFeedEvent, type Reader } from '../lib/live-events'
import { feedKeys } from '../lib/thread-cache'

/**
 * useFeedLive applies the forum's live events to the cached feed and posts
 * while a feed is shown (spec 001 §4 "Feed refresh and unread"). The events'
 * context keys are the posts' own ("thread:<id>"), so the feed listens to
 * every event and keeps the forum events; the server sends a member only
 * what they may read. The shown channel, if read before a connection went
 * live, is read again, since events were missed (useHubEvents).
 */
export function useFeedLive(channelId: string, reader: Reader, threadId?: string) {
  const qc = useQueryClient()
  useHubEvents(
    '*',
    (m) => {
      const e = readFeedEvent(m)
      if (e) applyFeedEvent(qc, e, reader)
    },
    (missed) => {
      void qc.invalidateQueries({ queryKey: feedKeys.channel(channelId), predicate: missed })
      if (threadId) void qc.invalidateQueries({ queryKey: feedKeys.thread(threadId), exact: true, predicate: missed })
    },
  )
}
