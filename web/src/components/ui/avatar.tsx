import * as React from 'react'
import * as AvatarPrimitive from '@radix-ui/react-avatar'
import { ProfileButton } from '@/components/profile-button'
import { cn, initials } from '@/lib/utils'

export function Avatar({ className, ...props }: React.ComponentProps<typeof AvatarPrimitive.Root>) {
  return <AvatarPrimitive.Root className={cn('relative flex size-9 shrink-0 overflow-hidden rounded-full', className)} {...props} />
}

export function AvatarImage({ className, ...props }: React.ComponentProps<typeof AvatarPrimitive.Image>) {
  return <AvatarPrimitive.Image className={cn('aspect-square size-full object-cover', className)} {...props} />
}

export function AvatarFallback({ className, ...props }: React.ComponentProps<typeof AvatarPrimitive.Fallback>) {
  return (
    <AvatarPrimitive.Fallback
      className={cn('flex size-full items-center justify-center rounded-full bg-secondary text-xs font-semibold text-secondary-foreground', className)}
      {...props}
    />
  )
}

export type Person = { id: string; firstName: string; lastName: string; avatar?: string | null }

/** PersonAvatar is a person's picture, or their initials. */
export function PersonAvatar({ person, className }: { person: Person; className?: string }) {
  return (
    <Avatar className={className}>
      {person.avatar && <AvatarImage src={person.avatar} alt="" />}
      <AvatarFallback aria-hidden>{initials(person.firstName, person.lastName)}</AvatarFallback>
    </Avatar>
  )
}

/**
 * AvatarGroup shows the first people overlapping and "+N" for the rest:
 * 3 shown, 2 on small screens (spec 000 §9). They overlap by 4 px: with
 * the 2 px ring, 8 px hid the last letter of the initials ("BO" read
 * "BC"). The "+N" is positioned as the avatars are, or they paint over it.
 */
export function AvatarGroup({ people, total, className }: { people: (Person & { userId?: string | null })[]; total?: number; className?: string }) {
  const count = total ?? people.length
  const shown = people.slice(0, 3)
  const names = people.map((p) => `${p.firstName} ${p.lastName}`).join(', ')
  return (
    <div className={cn('flex items-center -space-x-1', className)} role="group" aria-label={names}>
      {shown.map((p, i) => {
        const avatar = <PersonAvatar key={p.id} person={p} className={cn('size-8 ring-2 ring-background', i === 2 && 'hidden sm:flex')} />
        // A person with an account opens their profile dialog.
        return p.userId ? (
          <ProfileButton key={p.id} userId={p.userId} name={`${p.firstName} ${p.lastName}`} className={cn(i === 2 && 'hidden sm:inline-flex')}>
            {avatar}
          </ProfileButton>
        ) : (
          avatar
        )
      })}
      {count > 2 && (
        <span
          className={cn(
            'relative flex size-8 items-center justify-center rounded-full bg-muted text-xs font-medium text-muted-foreground ring-2 ring-background sm:hidden',
          )}
          aria-hidden
        >
          +{count - 2}
        </span>
      )}
      {count > 3 && (
        <span
          className="relative hidden size-8 items-center justify-center rounded-full bg-muted text-xs font-medium text-muted-foreground ring-2 ring-background sm:flex"
          aria-hidden
        >
          +{count - 3}
        </span>
      )}
    </div>
  )
}
