import { useEffect, useRef, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from '@tanstack/react-router'
import { ArrowLeft, Lock } from 'lucide-react'
import { isApiError } from '@/api/client'
import { PageGrid } from '@/components/layout/page-grid'
import { Skeleton } from '@/components/ui/skeleton'
import { toast } from '@/components/ui/toast'
import { useForum, type Forum } from '../api/get-forum'
import { needsSubscription } from '../lib/subscription'
import { useRecordVisit } from '../api/record-visit'
import { ForumHeader } from './forum-header'
import { ForumNav } from './forum-nav'

export type ForumPageProps = {
  seriesId: string
  communityId: string
  /** The forum's community and its forums, when the user's community list has them. */
  community?: { name: string; forums: { id: string; name: string }[] }
  /** The single-post view: the post to open, why, and the comment or reply it is about (a notification link). */
  postId?: string
  reason?: 'comment' | 'mention'
  reply?: string
  /**
   * The forum's feed, once the forum is read (the app layer brings it from
   * the feed feature, with the AI search box: features do not import each
   * other).
   */
  feed: (forum: Forum) => ReactNode
  /**
   * The subscribe flow, for a member who is not the forum's admin (the app
   * layer brings it from the subscriptions feature): the prompt while they
   * have no access, and what checkout's return says. recheck reads the
   * forum again.
   */
  subscribe?: (forum: Forum, recheck: () => void) => ReactNode
}

/**
 * ForumPage is /communities/{communityId}/series/{seriesId} and, with
 * postId, its single-post view (spec 001 §2). A forum that cannot be read
 * sends the user home with global:error.seriesForbidden (403, or 404: the
 * server answers a forum the caller may not read as it answers a missing
 * one, so that ids cannot be probed) or global:error.seriesLoading
 * (anything else).
 */
export function ForumPage({ seriesId, communityId, community, postId, reason, reply, feed, subscribe }: ForumPageProps) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const q = useForum(seriesId)
  const forum = q.data
  useRecordVisit(seriesId, !!forum)

  const failed = useRef(false)
  useEffect(() => {
    if (!q.isError || failed.current) return
    failed.current = true
    const forbidden = isApiError(q.error) && (q.error.status === 403 || q.error.status === 404)
    toast({ title: t(forbidden ? 'global:error.seriesForbidden' : 'global:error.seriesLoading'), variant: 'destructive' })
    void navigate({ to: '/home', replace: true })
  }, [q.isError, q.error, navigate, t])

  // A forum opened under another community's path is shown under its own.
  useEffect(() => {
    if (forum && forum.context.communityId !== communityId) {
      const params = { communityId: forum.context.communityId, seriesId }
      void (postId
        ? navigate({ to: '/communities/$communityId/series/$seriesId/posts/$postId', params: { ...params, postId }, search: { reason, reply }, replace: true })
        : navigate({ to: '/communities/$communityId/series/$seriesId', params, replace: true }))
    }
  }, [forum, communityId, seriesId, postId, reason, reply, navigate])

  // The side nav: the forums of the forum's community.
  const left = community && community.forums.length > 0 && <ForumNav community={{ id: communityId, ...community }} current={seriesId} className="sticky top-20" />

  if (!forum) {
    return (
      <PageGrid left={left}>
        <div className="grid gap-4" aria-busy="true" aria-label={t('forum.loading')} data-testid="forum-skeleton">
          <Skeleton className="h-36 rounded-xl" />
          <Skeleton className="h-48 rounded-xl" />
        </div>
      </PageGrid>
    )
  }

  return (
    <PageGrid left={left}>
      <ForumHeader forum={forum} />
      {postId && (
        <div className="mb-4 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm" data-testid="single-post-bar">
          <Link
            to="/communities/$communityId/series/$seriesId"
            params={{ communityId, seriesId }}
            className="inline-flex items-center gap-1 font-medium text-primary hover:underline"
          >
            <ArrowLeft aria-hidden className="size-4" />
            {t('forum.backToForum')}
          </Link>
          <span className="text-muted-foreground" data-testid="post-tagline">
            {community ? t('forum.tagline', { series: forum.name, community: community.name }) : t('forum.taglineSeries', { series: forum.name })}
          </span>
        </div>
      )}
      {needsSubscription(forum) ? (
        <p className="flex items-center gap-2 rounded-xl border border-dashed p-6 text-sm text-muted-foreground" data-testid="forum-locked">
          <Lock aria-hidden className="size-4" />
          {t('forum.locked')}
        </p>
      ) : (
        feed(forum)
      )}
      {forum.role !== 'admin' && subscribe?.(forum, () => void q.refetch())}
    </PageGrid>
  )
}
