import { useTranslation } from 'react-i18next'
import { Users } from 'lucide-react'
import { InviteButton, useInvite } from '@/components/invitation-status'
import { MemberRow } from '@/components/member-row'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Skeleton } from '@/components/ui/skeleton'
import { EmptyState, ErrorFallback } from '@/components/ui/states'
import { forumPeople, inviteToForum } from '../api/invite-to-forum'
import { useForumMembersList } from '../api/get-forum-members'

/**
 * MembersDialog lists the forum's members, experts first (spec 001 §2), 25
 * at a time, those without an account labelled Invited or Not invited yet.
 */
export function MembersDialog({
  seriesId,
  canInvite,
  open,
  onOpenChange,
}: {
  seriesId: string
  /** canInvite: the user is a forum admin, who may invite the members without an account. */
  canInvite: boolean
  open: boolean
  onOpenChange: (o: boolean) => void
}) {
  const { t } = useTranslation()
  const invite = useInvite((ids) => inviteToForum(seriesId, ids), forumPeople(seriesId))
  const q = useForumMembersList(seriesId, open)
  const members = q.data?.pages.flatMap((p) => p.results) ?? []
  const total = q.data?.pages[0]?.total
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[85dvh] grid-rows-[auto_minmax(0,1fr)]" data-testid="members-dialog">
        <DialogHeader>
          <DialogTitle>
            {t('forum.members.title')}
            {total !== undefined && <span className="ml-2 text-sm font-normal text-muted-foreground">{t('forum.members.count', { count: total })}</span>}
          </DialogTitle>
          <DialogDescription>{t('forum.members.description')}</DialogDescription>
        </DialogHeader>
        {/* Focusable, so keyboard users can scroll a long list (a row holds a control only for an admin). */}
        <div className="-mx-2 overflow-y-auto rounded-md px-2 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring" tabIndex={0} role="region" aria-label={t('forum.members.title')}>
          {q.isPending ? (
            <div className="grid gap-2" aria-busy="true">
              {[0, 1, 2].map((i) => (
                <Skeleton key={i} className="h-12" />
              ))}
            </div>
          ) : q.isError ? (
            <ErrorFallback message={t('forum.members.loadFailed')} onRetry={() => void q.refetch()} />
          ) : members.length === 0 ? (
            <EmptyState icon={<Users />}>{t('forum.members.empty')}</EmptyState>
          ) : (
            <>
              <ul className="grid gap-1" aria-label={t('forum.members.title')}>
                {members.map((m) => (
                  <MemberRow key={m.id} person={m} admin={m.role.startsWith('admin')} status={m.status} testId="member-row">
                    {canInvite && <InviteButton person={m} invite={invite} />}
                  </MemberRow>
                ))}
              </ul>
              {q.hasNextPage && (
                <div className="mt-2 flex justify-center">
                  <Button variant="outline" size="sm" onClick={() => void q.fetchNextPage()} disabled={q.isFetchingNextPage}>
                    {t('forum.members.showMore')}
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
