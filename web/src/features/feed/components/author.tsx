import { UserRound } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { ExpertStar } from '@/components/expert-star'
import { ProfileButton } from '@/components/profile-button'
import { PersonAvatar } from '@/components/ui/avatar'
import { cn } from '@/lib/utils'
import type { Thread } from '../lib/thread-cache'

export type Creator = NonNullable<Thread['creator']>

/** AuthorAvatar is an author's picture with the expert star (spec 001 §6), or a blank one for an anonymous question. */
export function AuthorAvatar({ creator, className }: { creator: Creator | null; className?: string }) {
  const { t } = useTranslation()
  if (!creator) {
    return (
      <span className={cn('flex size-9 shrink-0 items-center justify-center rounded-full bg-muted text-muted-foreground', className)} role="img" aria-label={t('feed.anonymousAvatar')}>
        <UserRound className="size-5" aria-hidden />
      </span>
    )
  }
  // The avatar opens the author's profile dialog (spec 000 §2.4).
  return (
    <ProfileButton userId={creator.userId} name={creatorName(creator)}>
      <span className="relative inline-flex shrink-0">
        <PersonAvatar person={{ id: creator.userId, firstName: creator.firstName, lastName: creator.lastName, avatar: creator.avatar }} className={className} />
        {creator.isExpert && <ExpertStar label={t('feed.expert')} testId="expert-badge" />}
      </span>
    </ProfileButton>
  )
}

export const creatorName = (c: Creator | null) => (c ? `${c.firstName} ${c.lastName}`.trim() : '')
