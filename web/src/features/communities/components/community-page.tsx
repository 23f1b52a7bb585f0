import { useEffect, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from '@tanstack/react-router'
import { ArrowDown, ArrowUp, GripVertical, MessagesSquare, Plus, Share2, Star } from 'lucide-react'
import { isApiError } from '@/api/client'
import { AvatarGroup } from '@/components/ui/avatar'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { EmptyState } from '@/components/ui/states'
import { toast } from '@/components/ui/toast'
import { PageGrid } from '@/components/layout/page-grid'
import { useCommunity, type CommunityWithForums } from '../api/get-community'
import { useHighlightedMembers } from '../api/get-highlighted-members'
import { CommunityMembersDialog } from './community-members-dialog'
import { useNewPosts } from '../api/get-new-posts'
import { useReorderForums } from '../api/reorder-forums'
import { moveItem } from '../lib/reorder'
import { CommunityAdminMenu } from './community-admin-menu'
import { CommunityCover } from './community-media'
import { ShareDialog } from './share-dialog'

export type CreateForumSlot = (p: { communityId: string; open: boolean; onOpenChange: (o: boolean) => void }) => ReactNode
/**
 * SubscribeSlot is the subscribe flow of a paid community, for a member who
 * does not manage it (the app layer brings it from the subscriptions
 * feature); recheck reads the community again.
 */
export type SubscribeSlot = (c: CommunityWithForums, recheck: () => void) => ReactNode

/**
 * CommunityPage is /communities/{id}: the community's picture or video,
 * description, forums in order (managers drag them into a new order), its
 * highlighted members, and for managers Share, the admin menu and Create
 * forum (the forum form, which the app layer brings as createForum). A
 * member without access to a paid community is offered to join it
 * (subscribe). A community that cannot be read sends the user home.
 */
export function CommunityPage({ communityId, createForum, subscribe }: { communityId: string; createForum?: CreateForumSlot; subscribe?: SubscribeSlot }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const community = useCommunity(communityId)
  useEffect(() => {
    if (!community.isError) return
    const gone = isApiError(community.error) && (community.error.status === 404 || community.error.status === 403)
    toast({ title: gone ? t('communities.page.notFound') : t('communities.page.loadFailed'), variant: 'destructive' })
    void navigate({ to: '/home', replace: true })
  }, [community.isError, community.error, navigate, t])

  if (!community.data) return <CommunityPageSkeleton />
  return (
    <>
      <CommunityView c={community.data} createForum={createForum} />
      {!community.data.permissions?.canManage && subscribe?.(community.data, () => void community.refetch())}
    </>
  )
}

function CommunityPageSkeleton() {
  return (
    <PageGrid>
      <div className="grid gap-4" aria-busy="true" data-testid="community-skeleton">
        <Skeleton className="aspect-[3/1] w-full rounded-xl" />
        <Skeleton className="h-8 w-1/3" />
        <Skeleton className="h-4 w-2/3" />
        <Skeleton className="h-24" />
      </div>
    </PageGrid>
  )
}

function CommunityView({ c, createForum }: { c: CommunityWithForums; createForum?: CreateForumSlot }) {
  const { t } = useTranslation()
  const [sharing, setSharing] = useState(false)
  const [creating, setCreating] = useState(false)
  const [listing, setListing] = useState(false)
  const highlighted = useHighlightedMembers([c.id]).data?.[c.id]
  const manage = !!c.permissions?.canManage
  return (
    <PageGrid>
      <article data-testid="community-page">
        <CommunityCover community={c} className="aspect-[3/1] w-full rounded-xl" />
        <header className="mt-4 flex flex-wrap items-start gap-3">
          <div className="min-w-0 flex-1">
            <h1 className="text-2xl font-semibold tracking-tight">{c.name}</h1>
            {c.organization && <p className="text-sm text-muted-foreground">{c.organization.name}</p>}
          </div>
          {c.permissions?.canShare && (
            <Button variant="outline" onClick={() => setSharing(true)}>
              <Share2 aria-hidden />
              {t('communities.page.share')}
            </Button>
          )}
          <CommunityAdminMenu community={c} />
        </header>
        <p className="mt-3 whitespace-pre-line text-muted-foreground">{c.description}</p>
        {highlighted && highlighted.total > 0 && (
          <section className="mt-4 flex flex-wrap items-center gap-3" aria-label={t('communities.page.members')}>
            <AvatarGroup people={highlighted.highlightedMembers} total={highlighted.total} />
            <span className="text-sm text-muted-foreground">{t('communities.page.memberCount', { count: highlighted.total })}</span>
            <Button variant="link" size="sm" className="h-auto px-0" onClick={() => setListing(true)} data-testid="community-members-open">
              {t('communities.members.open')}
            </Button>
          </section>
        )}
        <section className="mt-8" aria-labelledby="community-forums">
          <div className="mb-3 flex items-center justify-between gap-3">
            <h2 id="community-forums" className="text-lg font-semibold">
              {t('communities.page.forums')}
            </h2>
            {manage && createForum && (
              <Button size="sm" onClick={() => setCreating(true)}>
                <Plus aria-hidden />
                {t('communities.page.createForum')}
              </Button>
            )}
          </div>
          <ForumList c={c} manage={manage} />
        </section>
      </article>
      <CommunityMembersDialog communityId={c.id} open={listing} onOpenChange={setListing} />
      {c.permissions?.canShare && <ShareDialog community={c} open={sharing} onOpenChange={setSharing} />}
      {manage && createForum?.({ communityId: c.id, open: creating, onOpenChange: setCreating })}
    </PageGrid>
  )
}

function ForumList({ c, manage }: { c: CommunityWithForums; manage: boolean }) {
  const { t } = useTranslation()
  const reorder = useReorderForums(c.id)
  // How many posts of each forum are new to the member; a forum it does not
  // list has none (or could not be counted, which shows nothing).
  const news = useNewPosts(c.id)
  const newIn = (id: string) => news.data?.results.find((n) => n.seriesId === id)?.count ?? 0
  const [dragging, setDragging] = useState<number>()
  const ids = c.series.map((f) => f.id)
  const move = (from: number, to: number) => {
    const next = moveItem(ids, from, to)
    if (next !== ids) reorder.mutate(next)
  }
  if (c.series.length === 0) return <EmptyState icon={<MessagesSquare />}>{t('communities.page.noForums')}</EmptyState>
  return (
    <ol className="divide-y rounded-xl border" data-testid="community-forums">
      {c.series.map((f, i) => (
        <li
          key={f.id}
          className="flex items-center gap-3 px-4 py-3 data-[dragging=true]:opacity-50"
          data-dragging={dragging === i}
          draggable={manage}
          onDragStart={(e) => {
            setDragging(i)
            e.dataTransfer.effectAllowed = 'move'
          }}
          onDragEnd={() => setDragging(undefined)}
          onDragOver={(e) => {
            if (manage && dragging !== undefined) e.preventDefault()
          }}
          onDrop={(e) => {
            e.preventDefault()
            if (dragging !== undefined) move(dragging, i)
            setDragging(undefined)
          }}
          data-testid="community-forum"
        >
          {manage && <GripVertical className="size-4 shrink-0 cursor-grab text-muted-foreground" aria-hidden />}
          <div className="min-w-0 flex-1">
            <p className="flex items-center gap-1.5 truncate font-medium">
              <span className="truncate">{f.name}</span>
              {f.isExpert && <Star className="size-3.5 fill-current text-amber-600 dark:text-amber-400" aria-label={t('communities.page.expert')} />}
              {newIn(f.id) > 0 && (
                <Badge variant="secondary" data-testid="forum-new-posts">
                  {t('communities.page.newPosts', { count: newIn(f.id) })}
                </Badge>
              )}
            </p>
            <p className="truncate text-sm text-muted-foreground">{f.description}</p>
          </div>
          {manage && (
            // The keyboard's way to reorder, beside dragging.
            <div className="flex">
              <Button variant="ghost" size="icon" disabled={i === 0 || reorder.isPending} onClick={() => move(i, i - 1)} aria-label={t('communities.page.moveUp', { name: f.name })}>
                <ArrowUp aria-hidden />
              </Button>
              <Button
                variant="ghost"
                size="icon"
                disabled={i === c.series.length - 1 || reorder.isPending}
                onClick={() => move(i, i + 1)}
                aria-label={t('communities.page.moveDown', { name: f.name })}
              >
                <ArrowDown aria-hidden />
              </Button>
            </div>
          )}
          <Button asChild variant="outline" size="sm">
            <Link to="/communities/$communityId/series/$seriesId" params={{ communityId: c.id, seriesId: f.id }} aria-label={`${t('communities.page.open')} ${f.name}`}>
              {t('communities.page.open')}
            </Link>
          </Button>
        </li>
      ))}
    </ol>
  )
}
