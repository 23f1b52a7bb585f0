import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Search, Users } from 'lucide-react'
import { MemberRow } from '@/components/member-row'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { Skeleton } from '@/components/ui/skeleton'
import { EmptyState, ErrorFallback } from '@/components/ui/states'
import { useDebouncedValue } from '@/hooks/use-debounced-value'
import { useCommunityMembers } from '../api/get-community-members'

/**
 * CommunityMembersDialog lists a community's people, 25 at a time (the
 * caller first, then experts, then by name), and finds them by name as the
 * member search does, a typo forgiven (spec 000 §3 Community member).
 */
export function CommunityMembersDialog({
  communityId,
  open,
  onOpenChange,
}: {
  communityId: string
  open: boolean
  onOpenChange: (o: boolean) => void
}) {
  const { t } = useTranslation()
  const [text, setText] = useState('')
  const keyword = useDebouncedValue(text.trim())
  const q = useCommunityMembers(communityId, keyword, open)
  const members = q.data?.pages.flatMap((p) => p.results) ?? []
  const total = q.data?.pages[0]?.total
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (!o) setText('')
        onOpenChange(o)
      }}
    >
      <DialogContent className="max-h-[85dvh] grid-rows-[auto_auto_minmax(0,1fr)]" data-testid="community-members-dialog">
        <DialogHeader>
          <DialogTitle>
            {t('communities.members.title')}
            {total !== undefined && !keyword && (
              <span className="ml-2 text-sm font-normal text-muted-foreground">{t('communities.page.memberCount', { count: total })}</span>
            )}
          </DialogTitle>
          <DialogDescription>{t('communities.members.description')}</DialogDescription>
        </DialogHeader>
        <div className="relative">
          <Search className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <Input
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={t('communities.members.searchPlaceholder')}
            aria-label={t('communities.members.search')}
            className="pl-8"
            maxLength={200}
          />
        </div>
        {/* Focusable, so keyboard users can scroll a long list. */}
        <div
          className="-mx-2 overflow-y-auto rounded-md px-2 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          tabIndex={0}
          role="region"
          aria-label={t('communities.members.title')}
        >
          {q.isPending ? (
            <div className="grid gap-2" aria-busy="true">
              {[0, 1, 2].map((i) => (
                <Skeleton key={i} className="h-12" />
              ))}
            </div>
          ) : q.isError ? (
            <ErrorFallback message={t('communities.members.loadFailed')} onRetry={() => void q.refetch()} />
          ) : members.length === 0 ? (
            <EmptyState icon={<Users />}>{keyword ? t('communities.members.noMatch', { keyword }) : t('communities.members.empty')}</EmptyState>
          ) : (
            <>
              {keyword && (
                <p className="px-2 pb-1 text-xs text-muted-foreground" aria-live="polite">
                  {t('communities.members.found', { count: total ?? members.length })}
                </p>
              )}
              <ul className="grid gap-1" aria-label={t('communities.members.title')}>
                {members.map((m) => (
                  <MemberRow key={m.id} person={m} admin={m.role !== 'member'} status={m.assignmentStatus} testId="community-member-row" />
                ))}
              </ul>
              {q.hasNextPage && (
                <div className="mt-2 flex justify-center">
                  <Button variant="outline" size="sm" onClick={() => void q.fetchNextPage()} disabled={q.isFetchingNextPage}>
                    {t('communities.members.showMore')}
                  </Button>
                </div>
              )}
            </>
          )}
        </div>
      </DialogContent>
    </Dialog>
  )
}
