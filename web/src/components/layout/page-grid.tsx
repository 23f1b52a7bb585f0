import type { ReactNode } from 'react'
import { cn } from '@/lib/utils'

/**
 * PageGrid is the page layout (spec 000 §2.3): on large screens a 220 px
 * side track for each side the page has something for, and the page's
 * column beside them; one column otherwise. A side with nothing to show has
 * no track: an empty track left a wide blank beside the feed, which the
 * side panel, when opened, took from the feed instead. The page's column
 * grows into the free space up to a readable width (52rem beside a side
 * track, 56rem alone), and the columns are centered together.
 */
export function PageGrid({ left, right, children, className }: { left?: ReactNode; right?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <div className={cn('mx-auto grid w-full max-w-[1570px] gap-6 px-4 py-6 sm:px-6 lg:justify-center', pageTracks(!!left, !!right), className)} data-testid="page-grid">
      {left && <aside className="hidden lg:block">{left}</aside>}
      <div className="min-w-0">{children}</div>
      {right && <aside className="hidden lg:block">{right}</aside>}
    </div>
  )
}

/** pageTracks are the large screens' columns: the side tracks the page has, and the page's column between them. */
function pageTracks(left: boolean, right: boolean): string {
  if (left && right) return 'lg:grid-cols-[220px_minmax(0,52rem)_220px]'
  if (left) return 'lg:grid-cols-[220px_minmax(0,52rem)]'
  if (right) return 'lg:grid-cols-[minmax(0,52rem)_220px]'
  return 'lg:grid-cols-[minmax(0,56rem)]'
}
