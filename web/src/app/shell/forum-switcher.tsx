import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ChevronDown, MessagesSquare } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Sheet, SheetContent, SheetDescription, SheetTitle, SheetTrigger } from '@/components/ui/sheet'
import { Skeleton } from '@/components/ui/skeleton'
import { EmptyState, ErrorFallback } from '@/components/ui/states'
import { Tip } from '@/components/ui/tooltip'
import { useMyCommunities } from '@/features/communities/api/get-my-communities'
import { communityForums } from '@/features/communities/hooks/community-list'
import { ForumNav } from '@/features/forums/components/forum-nav'

/**
 * ForumSwitcher is the top bar's forum title on screens without the forum
 * page's side nav: it names the forum shown, and opens a sheet listing the
 * member's forums by community, from the same community list and with the
 * same nav as the side nav, so a member goes from one forum to another
 * without going home. Choosing a forum closes the sheet.
 */
export function ForumSwitcher({ seriesId }: { /** The forum whose page is shown. */ seriesId: string }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const communities = useMyCommunities()
  const list = (communities.data?.results ?? []).map(communityForums).filter((c) => c.forums.length > 0)
  const name = list.flatMap((c) => c.forums).find((f) => f.id === seriesId)?.name
  return (
    <Sheet open={open} onOpenChange={setOpen}>
      <Tip label={t('nav.switchForum')}>
        <SheetTrigger asChild>
          <Button
            variant="ghost"
            className="min-w-0 max-w-full justify-start gap-1 px-2 font-semibold"
            aria-label={t('nav.switchForumFrom', { name: name ?? t('nav.forums') })}
            data-testid="forum-switcher"
          >
            <span className="truncate">{name ?? t('nav.forums')}</span>
            <ChevronDown aria-hidden />
          </Button>
        </SheetTrigger>
      </Tip>
      <SheetContent side="left" className="w-[85%] overflow-y-auto" data-testid="forum-switcher-sheet">
        <div className="grid gap-1 pr-6">
          <SheetTitle>{t('nav.yourForums')}</SheetTitle>
          <SheetDescription>{t('nav.yourForumsHint')}</SheetDescription>
        </div>
        {communities.isPending ? (
          <div className="grid gap-2" aria-busy="true" aria-label={t('nav.yourForums')}>
            <Skeleton className="h-8" />
            <Skeleton className="h-8" />
          </div>
        ) : communities.isError ? (
          <ErrorFallback message={t('nav.forumsFailed')} onRetry={() => void communities.refetch()} />
        ) : list.length === 0 ? (
          <EmptyState icon={<MessagesSquare />}>{t('nav.noForums')}</EmptyState>
        ) : (
          list.map((c) => (
            <ForumNav key={c.id} community={c} current={seriesId} label={t('nav.forumsOfCommunity', { name: c.name })} wrap onNavigate={() => setOpen(false)} />
          ))
        )}
      </SheetContent>
    </Sheet>
  )
}
