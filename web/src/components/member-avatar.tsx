import type { ReactNode } from 'react'
import { Star } from 'lucide-react'
import { PersonAvatar, type Person } from '@/components/ui/avatar'
import { cn } from '@/lib/utils'

/**
 * MemberAvatar is a member's picture; a forum's experts get a star badge on it
 * (spec 001 §1, §6). The badge is decoration: lists say "Expert" in words.
 */
export function MemberAvatar({
  person,
  isExpert,
  className,
  badgeSide = 'right',
}: {
  person: Person
  isExpert: boolean
  className?: string
  /** In an overlapping strip the next avatar covers the right side: badge the left. */
  badgeSide?: 'left' | 'right'
}) {
  return (
    <span className="relative inline-flex shrink-0" data-expert={isExpert || undefined}>
      <PersonAvatar person={person} className={className} />
      {isExpert && (
        <span
          aria-hidden
          data-testid="expert-star"
          className={cn(
            'absolute -bottom-0.5 flex size-4 items-center justify-center rounded-full bg-amber-500 text-white ring-2 ring-background',
            badgeSide === 'right' ? '-right-0.5' : '-left-0.5',
          )}
        >
          <Star className="size-2.5 fill-current" />
        </span>
      )}
    </span>
  )
}

export const fullName = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`.trim()

/** RolePill marks an admin or an expert in a member row. */
export function RolePill({ children, className }: { children: ReactNode; className?: string }) {
  return <span className={cn('rounded-sm bg-muted px-1.5 py-0.5 text-xs font-medium text-muted-foreground', className)}>{children}</span>
}
