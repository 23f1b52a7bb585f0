import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react'
import { skipToken, useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Loader2 } from 'lucide-react'
import { isApiError, type Schemas } from '@/api/client'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { EmptyState, ErrorFallback } from '@/components/ui/states'
import { useCurrentUser } from '@/lib/session-context'
import { cn } from '@/lib/utils'
import { useThread } from '../api/get-thread'
import { useChannelThreads } from '../api/list-channel-threads'
import { useRecordView } from '../api/record-activity'
import { useFeedLive } from '../hooks/use-feed-live'
import { FocusedReply } from '../lib/focused-reply'
import { HashtagFilter } from '../lib/hashtag-filter'
import { useScrollLoad } from '../hooks/use-scroll-load'
import { ComposerButtons } from './composer'
import { PostCard } from './post-card'
import type { Seen } from './unread'

export interface ForumFeedProps {
  series: Schemas['Forum']
  postId?: string
  reason?: 'comment' | 'mention'
  /** The comment or reply of the single post to scroll to and mark. */
  reply?: string
  /**
   * The AI search box shown with the composer buttons above the feed, for
   * the channel shown (the forum page composes it: features do not import
   * each other).
   */
  search?: (channelId: string) => ReactNode
  /** The hashtag whose posts the feed shows (`?hashtag=`), or none: all posts. */
  hashtag?: string
  /** Shows a hashtag's posts (a clicked hashtag), or all posts again (none). */
  onHashtag?: (name: string | undefined) => void
}

/**
 * useLastSeen is the unread marker's last-seen time: the previous visit,
 * which the forum page records and keeps under ['series', id, 'visits']
 * (features/forums/api/record-visit.ts; read here by key, never fetched:
 * reading it again would record a visit), until the member reacts,
 * comments or opens replies.
 */
function useLastSeen(seriesId: string): Seen {
  const me = useCurrentUser()?.user.id
  const visit = useQuery<Schemas['VisitBody']>({ queryKey: ['series', seriesId, 'visits'], queryFn: skipToken, staleTime: Infinity })
  const [touched, setTouched] = useState<string>()
  const touch = useCallback(() => setTouched(new Date().toISOString()), [])
  return useMemo(() => ({ lastSeen: touched ?? visit.data?.previouslyVisitedOn, me, touch }), [touched, visit.data, me, touch])
}

/**
 * ForumFeed is a forum's feed (spec 001 §2): the composer buttons and the AI
 * search box, then the channel's posts as an infinite list, kept current by
 * the forum's live events; forum admins can switch to the admins' channel. With postId it
 * shows that one post with its comments open.
 */
export function ForumFeed({ series, postId, reason, reply, search, hashtag, onHashtag }: ForumFeedProps) {
  const me = useCurrentUser()?.user.id
  const isForumAdmin = series.role === 'admin'
  const seen = useLastSeen(series.id)
  const [channel, setChannel] = useState<'main' | 'admin'>('main')
  const channelId = channel === 'admin' && series.adminChannelId ? series.adminChannelId : series.mainChannelId
  const reader = useMemo(() => ({ userId: me, isForumAdmin }), [me, isForumAdmin])
  useFeedLive(channelId, reader, postId)

  const filter = useMemo(() => (onHashtag ? (name: string) => onHashtag(name) : null), [onHashtag])
  if (postId)
    return (
      <HashtagFilter.Provider value={filter}>
        <SinglePost postId={postId} series={series} isForumAdmin={isForumAdmin} seen={seen} reason={reason} reply={reply} />
      </HashtagFilter.Provider>
    )
  return (
    <HashtagFilter.Provider value={filter}>
      <div className="grid gap-4">
        <ComposerButtons series={series} channelId={channelId} />
        {search?.(channelId)}
        {series.adminChannelId && isForumAdmin && <ChannelSwitch value={channel} onChange={setChannel} />}
        {hashtag && <HashtagBanner name={hashtag} onClear={() => onHashtag?.(undefined)} />}
        <ChannelFeed key={`${channelId}#${hashtag ?? ''}`} channelId={channelId} series={series} isForumAdmin={isForumAdmin} seen={seen} hashtag={hashtag} />
      </div>
    </HashtagFilter.Provider>
  )
}

/** HashtagBanner says the feed shows a hashtag's posts, with the way back to all. */
function HashtagBanner({ name, onClear }: { name: string; onClear: () => void }) {
  const { t } = useTranslation()
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 rounded-lg border bg-muted/40 px-3 py-2 text-sm" role="status" data-testid="hashtag-banner">
      <span>{t('feed.hashtagShown', { name })}</span>
      <Button variant="outline" size="sm" onClick={onClear}>
        {t('feed.hashtagClear')}
      </Button>
    </div>
  )
}

/**
 * ChannelPosts is one channel's composer buttons and posts, without the
 * forum page's search box and channel switch: the Insights panel shows the
 * forum's admin channel with it (the shell composes the two features). It
 * does not listen to live events itself: it is shown beside the forum
 * page, whose ForumFeed applies every forum event to every cached channel,
 * and a second listener would count a new comment twice.
 */
export function ChannelPosts({ series, channelId, label }: { series: Schemas['Forum']; channelId: string; label?: string }) {
  const isForumAdmin = series.role === 'admin'
  const seen = useLastSeen(series.id)
  return (
    <div className="grid min-w-0 gap-4">
      <ComposerButtons series={series} channelId={channelId} />
      <ChannelFeed key={channelId} channelId={channelId} series={series} isForumAdmin={isForumAdmin} seen={seen} label={label} />
    </div>
  )
}

function ChannelSwitch({ value, onChange }: { value: 'main' | 'admin'; onChange: (v: 'main' | 'admin') => void }) {
  const { t } = useTranslation()
  return (
    <div role="group" aria-label={t('feed.channelSwitch')} className="inline-flex w-fit rounded-lg bg-muted p-1" data-testid="channel-switch">
      {(['main', 'admin'] as const).map((c) => (
        <button
          key={c}
          type="button"
          aria-pressed={value === c}
          onClick={() => onChange(c)}
          className={cn(
            'rounded-md px-3 py-1 text-sm font-medium text-muted-foreground transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
            value === c && 'bg-background text-foreground shadow',
          )}
        >
          {c === 'main' ? t('feed.mainChannel') : t('feed.adminChannel')}
        </button>
      ))}
    </div>
  )
}

function ChannelFeed({
  channelId,
  series,
  isForumAdmin,
  seen,
  label,
  hashtag,
}: {
  channelId: string
  series: Schemas['Forum']
  isForumAdmin: boolean
  seen: Seen
  label?: string
  hashtag?: string
}) {
  const { t } = useTranslation()
  const q = useChannelThreads(channelId, hashtag)
  const marker = useRef<HTMLDivElement>(null)
  const canLoad = !!q.hasNextPage && !q.isFetchingNextPage && !q.isFetchNextPageError
  // cancelRefetch: false: a refetch in flight (a new post's) is waited for, not
  // dropped, or the pages would stay as they were before it.
  useScrollLoad(marker, () => void q.fetchNextPage({ cancelRefetch: false }), canLoad, q.data?.pages.length ?? 0)
  const threads = q.data?.pages.flatMap((p) => p.results) ?? []

  if (q.isPending) return <FeedSkeleton />
  // A failed next page keeps the pages loaded (the query is in error with its data).
  if (!q.data) return <ErrorFallback message={t('feed.loadFailed')} onRetry={() => void q.refetch()} />
  return (
    <section aria-label={label ?? t('feed.label', { forum: series.name })} data-testid="forum-feed" aria-busy={q.isFetchingNextPage}>
      {threads.length === 0 ? (
        <EmptyState>{hashtag ? t('feed.hashtagEmpty', { name: hashtag }) : t('feed.empty')}</EmptyState>
      ) : (
        <ul className="grid gap-4">
          {threads.map((thread) => (
            <li key={thread.id}>
              <PostCard thread={thread} seriesId={series.id} isForumAdmin={isForumAdmin} seen={seen} />
            </li>
          ))}
        </ul>
      )}
      <div ref={marker} className="flex justify-center py-4">
        {q.isFetchingNextPage ? (
          <span className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
            <Loader2 className="size-4 animate-spin" aria-hidden />
            {t('feed.loadingMore')}
          </span>
        ) : q.isFetchNextPageError ? (
          <ErrorFallback message={t('feed.loadFailed')} onRetry={() => void q.fetchNextPage()} />
        ) : q.hasNextPage ? (
          // The list loads itself on scrolling; the button is for keyboards and for screens taller than the list.
          <Button variant="outline" size="sm" onClick={() => void q.fetchNextPage()}>
            {t('feed.loadMore')}
          </Button>
        ) : (
          threads.length > 0 && <p className="text-xs text-muted-foreground">{t('feed.end')}</p>
        )}
      </div>
    </section>
  )
}

function SinglePost({
  postId,
  series,
  isForumAdmin,
  seen,
  reason,
  reply,
}: {
  postId: string
  series: Schemas['Forum']
  isForumAdmin: boolean
  seen: Seen
  reason?: 'comment' | 'mention'
  reply?: string
}) {
  const { t } = useTranslation()
  const q = useThread(postId)
  useRecordView(postId, q.data?.seriesId === series.id)
  if (q.isPending) return <FeedSkeleton count={1} />
  if (q.isError) {
    const gone = isApiError(q.error) && (q.error.status === 404 || q.error.status === 400)
    return gone ? <EmptyState>{t('feed.postNotFound')}</EmptyState> : <ErrorFallback message={t('feed.loadFailed')} onRetry={() => void q.refetch()} />
  }
  // A post of another forum is not shown under this one.
  if (q.data.seriesId !== series.id) return <EmptyState>{t('feed.postNotFound')}</EmptyState>
  return (
    <section aria-label={t('feed.label', { forum: series.name })} data-testid="single-post" data-reason={reason}>
      <FocusedReply.Provider value={reply}>
        <PostCard thread={q.data} seriesId={series.id} isForumAdmin={isForumAdmin} seen={seen} expanded />
      </FocusedReply.Provider>
    </section>
  )
}

function FeedSkeleton({ count = 3 }: { count?: number }) {
  const { t } = useTranslation()
  return (
    <div className="grid gap-4" aria-busy="true" aria-label={t('app.loading')} data-testid="feed-skeleton">
      {Array.from({ length: count }, (_, i) => (
        <Skeleton key={i} className="h-40 rounded-lg" />
      ))}
    </div>
  )
}
