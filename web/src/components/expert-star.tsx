import { Star } from 'lucide-react'
import { cn } from '@/lib/utils'

/**
 * ExpertStar is the star badge on an expert's avatar (spec 001 §6, 002
 * §2), named for screen readers by label; the avatar is wrapped in a
 * relative box it sits in the corner of.
 */
export function ExpertStar({ label, className, testId }: { label: string; className?: string; testId?: string }) {
  return (
    <span
      className={cn('absolute -bottom-0.5 -right-0.5 flex size-4 items-center justify-center rounded-full bg-amber-500 text-white ring-2 ring-background', className)}
      role="img"
      aria-label={label}
      data-testid={testId}
    >
      <Star className="size-[62.5%] fill-current" aria-hidden />
    </span>
  )
}
