import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Skeleton } from '@/components/ui/skeleton'
import { useForumMembersStrip } from '../api/get-forum-members'
import { MembersDialog } from './members-dialog'
import { fullName, MemberAvatar } from '@/components/member-avatar'

/**
 * MembersStrip is the header's highlighted members: the first three,
 * experts first, and the total (spec 001 §2, §9). It opens the members list.
 */
export function MembersStrip({ seriesId, canInvite }: { seriesId: string; canInvite: boolean }) {
  const { t } = useTranslation()
  const q = useForumMembersStrip(seriesId)
  const [open, setOpen] = useState(false)
  if (q.isPending) return <Skeleton className="h-8 w-40" />
  if (q.isError) return null
  const { results, total } = q.data
  const names = results.map((m) => (m.isExpert ? `${fullName(m)} (${t('forum.members.expert')})` : fullName(m))).join(', ')
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="group flex items-center gap-2 rounded-full py-0.5 pl-0.5 pr-3 text-sm hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        aria-label={`${t('forum.members.strip')}: ${t('forum.members.count', { count: total })}${names ? `, ${names}` : ''}`}
        aria-haspopup="dialog"
        data-testid="members-strip"
      >
        <span className="flex -space-x-1" aria-hidden>
          {results.slice(0, 3).map((m) => (
            <MemberAvatar key={m.id} person={m} isExpert={m.isExpert} badgeSide="left" className="size-8 ring-2 ring-background" />
          ))}
          {total > 3 && (
            <span className="relative flex size-8 items-center justify-center rounded-full bg-muted text-xs font-medium text-muted-foreground ring-2 ring-background">
              {t('forum.members.more', { count: total - 3 })}
            </span>
          )}
        </span>
        <span className="text-muted-foreground group-hover:text-foreground" aria-hidden>
          {t('forum.members.count', { count: total })}
        </span>
      </button>
      <MembersDialog seriesId={seriesId} canInvite={canInvite} open={open} onOpenChange={setOpen} />
    </>
  )
}
