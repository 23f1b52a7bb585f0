import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from '@tanstack/react-router'
import { CalendarDays, MessagesSquare, Star, Users } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { isPaid } from '@/lib/price'
import { EmptyState, ErrorFallback } from '@/components/ui/states'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { Label } from '@/components/ui/label'
import { PageGrid } from '@/components/layout/page-grid'
import { useCurrentUser } from '@/lib/session-context'
import { useMyCommunities, type MyCommunity } from '../api/get-my-communities'
import { useOrganizationPermissions } from '../api/get-organization-permissions'
import { ManageCommunitiesDialog } from './manage-communities-dialog'
import { filterAndSort, manageable, type CommunityFilter, type CommunitySort } from '../hooks/community-list'

export function HomePage({
  filter,
  sort,
  upcoming,
}: {
  filter: CommunityFilter
  sort: CommunitySort
  /** The upcoming Meet Ups card, which the app layer brings from the Meet Ups feature. */
  upcoming?: ReactNode
}) {
  const { t } = useTranslation()
  const navigate = useNavigate({ from: '/home' })
  const me = useCurrentUser()
  const communities = useMyCommunities()
  const list = communities.data ? filterAndSort([...communities.data.results], filter, sort) : []

  return (
    <PageGrid left={<CommunityNav communities={communities.data?.results} />}>
      <div className="mb-6">
        <h1 className="text-2xl font-semibold tracking-tight">{t('home.title')}</h1>
        {me && <p className="text-muted-foreground">{t('home.welcome', { name: me.user.firstName })}</p>}
      </div>
      {upcoming}
      <Tabs value={filter} onValueChange={(v) => void navigate({ search: (s) => ({ ...s, filter: v as CommunityFilter }), replace: true })}>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <h2 className="text-lg font-semibold">{t('home.communities')}</h2>
        <div className="flex flex-wrap items-center gap-3">
            <TabsList aria-label={t('home.filter')}>
              <TabsTrigger value="all">{t('home.filterAll')}</TabsTrigger>
              <TabsTrigger value="new">{t('home.filterNew')}</TabsTrigger>
              <TabsTrigger value="visited">{t('home.filterVisited')}</TabsTrigger>
            </TabsList>
          <div className="flex items-center gap-2">
            <Label htmlFor="home-sort" className="text-muted-foreground">
              {t('home.sort')}
            </Label>
            <Select value={sort} onValueChange={(v) => void navigate({ search: (s) => ({ ...s, sort: v as CommunitySort }), replace: true })}>
              <SelectTrigger id="home-sort" className="w-36">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="event">{t('home.sortEvent')}</SelectItem>
                <SelectItem value="latest">{t('home.sortLatest')}</SelectItem>
              </SelectContent>
            </Select>
          </div>
        </div>
      </div>
      <TabsContent value={filter} className="mt-0">
      {communities.isPending ? (
        <CommunityListSkeleton />
      ) : communities.isError ? (
        <ErrorFallback message={t('home.loadFailed')} onRetry={() => void communities.refetch()} />
      ) : list.length === 0 ? (
        communities.data.total === 0 ? (
          <NoCommunity />
        ) : (
          <EmptyState icon={<Users />}>{t('home.emptyFiltered')}</EmptyState>
        )
      ) : (
        <ul className="grid gap-4" data-testid="community-list">
          {list.map((c) => (
            <CommunityCard key={c.id} community={c} />
          ))}
        </ul>
      )}
      </TabsContent>
      </Tabs>
    </PageGrid>
  )
}

export function CommunityListSkeleton() {
  return (
    <div className="grid gap-4" aria-busy="true" data-testid="community-skeleton">
      {[0, 1, 2].map((i) => (
        <div key={i} className="rounded-xl border bg-card p-5">
          <div className="flex gap-4">
            <Skeleton className="size-14 rounded-lg" />
            <div className="grid flex-1 gap-2">
              <Skeleton className="h-5 w-1/3" />
              <Skeleton className="h-4 w-2/3" />
            </div>
          </div>
          <div className="mt-4 grid gap-2">
            <Skeleton className="h-9" />
            <Skeleton className="h-9" />
          </div>
        </div>
      ))}
    </div>
  )
}

/**
 * NoCommunity is Home for a member of no community, with the next step:
 * one who may add communities (an organization's admin, a super user)
 * creates one; anyone else joins by an invitation or an admin.
 */
function NoCommunity() {
  const { t } = useTranslation()
  const org = useOrganizationPermissions()
  const [creating, setCreating] = useState(false)
  const canCreate = (org.data?.whichOnesCanIAddCommunitiesTo?.length ?? 0) > 0
  return (
    <EmptyState icon={<Users />}>
      <p>{t('home.empty')}</p>
      {canCreate ? (
        <>
          <Button className="mt-2" onClick={() => setCreating(true)}>
            {t('home.emptyCreate')}
          </Button>
          <ManageCommunitiesDialog open={creating} onOpenChange={setCreating} />
        </>
      ) : (
        <p>{t('home.emptyNext')}</p>
      )}
    </EmptyState>
  )
}

function CommunityImage({ community, className }: { community: MyCommunity; className?: string }) {
  return community.image ? (
    <img src={community.image} alt="" className={className + ' object-cover'} />
  ) : (
    <div aria-hidden className={className + ' flex items-center justify-center bg-primary text-lg font-semibold text-primary-foreground'}>
      {community.name.slice(0, 1).toUpperCase()}
    </div>
  )
}

/** toJoin: a paid community the member has not paid for (nor manages): Home offers it, and its page the subscribe flow. */
const toJoin = (c: MyCommunity) => isPaid(c) && !c.isSubscribed && !manageable(c)

function CommunityCard({ community: c }: { community: MyCommunity }) {
  const { t } = useTranslation()
  return (
    <li id={`community-${c.id}`} className="relative scroll-mt-20 overflow-hidden rounded-xl border bg-card text-card-foreground shadow-xs" data-testid="community-card">
      <div className="flex gap-4 p-5">
        <CommunityImage community={c} className="size-14 shrink-0 rounded-lg" />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="truncate text-base font-semibold">
              <Link to="/communities/$communityId" params={{ communityId: c.id }} className="hover:underline">
                {c.name}
              </Link>
            </h3>
            {!c.lastVisitedOn && <Badge data-testid="new-ribbon">{t('home.new')}</Badge>}
            {manageable(c) && <Badge variant="secondary">{t('home.admin')}</Badge>}
          </div>
          <p className="mt-1 line-clamp-2 text-sm text-muted-foreground">{c.description}</p>
          <p className="mt-1 flex items-center gap-1.5 text-xs text-muted-foreground">
            <MessagesSquare className="size-3.5" aria-hidden />
            {t('home.forumCount', { count: c.series.length })}
            {c.event && (
              <>
                <CalendarDays className="ml-2 size-3.5" aria-hidden />
                {new Date(c.event.data.startDateTime).toLocaleString()}
              </>
            )}
          </p>
        </div>
        {toJoin(c) && (
          // The subscribe flow is the community page's.
          <Button asChild size="sm" className="shrink-0 self-start">
            <Link to="/communities/$communityId" params={{ communityId: c.id }} aria-label={t('home.joinLabel', { name: c.name })}>
              {t('home.join')}
            </Link>
          </Button>
        )}
      </div>
      {toJoin(c) && <p className="px-5 pb-3 text-xs text-muted-foreground">{t('home.toJoin')}</p>}
      {c.series.length === 0 ? (
        <p className="border-t px-5 py-3 text-sm text-muted-foreground">{t('home.noForums')}</p>
      ) : (
        <ul className="divide-y border-t" aria-label={t('home.forums')}>
          {c.series.map((f) => (
            <li key={f.id} className="flex items-center justify-between gap-3 px-5 py-2.5">
              <div className="min-w-0">
                <p className="flex items-center gap-1.5 truncate text-sm font-medium">
                  {f.name}
                  {f.isExpert && <Star className="size-3.5 fill-current text-amber-600 dark:text-amber-400" aria-label="Expert" />}
                </p>
                <p className="truncate text-xs text-muted-foreground">{f.description}</p>
              </div>
              <Button asChild variant="outline" size="sm">
                <Link to="/communities/$communityId/series/$seriesId" params={{ communityId: c.id, seriesId: f.id }} aria-label={`${t('home.open')} ${f.name}`}>
                  {t('home.open')}
                </Link>
              </Button>
            </li>
          ))}
        </ul>
      )}
    </li>
  )
}

function CommunityNav({ communities }: { communities?: MyCommunity[] }) {
  const { t } = useTranslation()
  return (
    <nav aria-label={t('home.communities')} className="sticky top-20 grid gap-1">
      <p className="px-2 pb-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground">{t('nav.communities')}</p>
      {communities === undefined
        ? [0, 1].map((i) => <Skeleton key={i} className="h-8" />)
        : communities.map((c) => (
            <Link
              key={c.id}
              to="/communities/$communityId"
              params={{ communityId: c.id }}
              className="truncate rounded-md px-2 py-1.5 text-sm hover:bg-accent hover:text-accent-foreground"
            >
              {c.name}
            </Link>
          ))}
    </nav>
  )
}
