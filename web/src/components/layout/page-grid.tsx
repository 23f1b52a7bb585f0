import type { ReactNode } from 'react'
import { cn } from '@/lib/utils'

/**
 * PageGrid is the page layout: three columns with 220 px side tracks on
 * large screens, one column otherwise (spec 000 §2.3).
 */
export function PageGrid({ left, right, children, className }: { left?: ReactNode; right?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <div
      className={cn('mx-auto grid w-full max-w-[1570px] gap-6 px-4 py-6 sm:px-6 lg:grid-cols-[220px_minmax(0,1fr)_220px]', className)}
      data-testid="page-grid"
    >
      <aside className="hidden lg:block">{left}</aside>
      <div className="min-w-0">{children}</div>
      <aside className="hidden lg:block">{right}</aside>
    </div>
  )
}
