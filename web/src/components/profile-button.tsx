import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useOpenProfile } from '@/lib/profile-opener'
import { cn } from '@/lib/utils'

/**
 * ProfileButton makes a person's avatar, chip or name open their profile
 * dialog; where no dialog is mounted it shows its content as it is.
 */
export function ProfileButton({ userId, name, className, children }: { userId: string; name: string; className?: string; children: ReactNode }) {
  const { t } = useTranslation()
  const open = useOpenProfile()
  if (!open) return <>{children}</>
  return (
    <button
      type="button"
      className={cn('inline-flex shrink-0 cursor-pointer rounded-full focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring', className)}
      aria-label={t('profile.open', { name })}
      data-profile={userId}
      onClick={(e) => {
        // A person inside a post or a card: the card's own click is not theirs.
        e.stopPropagation()
        open(userId)
      }}
    >
      {children}
    </button>
  )
}
