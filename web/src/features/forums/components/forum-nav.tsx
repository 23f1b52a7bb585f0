import { useTranslation } from 'react-i18next'
import { Link } from '@tanstack/react-router'
import { cn } from '@/lib/utils'

/** ForumNavCommunity is a community and its forums, as a forum list shows them. */
export type ForumNavCommunity = { id: string; name: string; forums: { id: string; name: string }[] }

/**
 * ForumNav lists a community's forums under its name, each a link to its
 * page, the current one marked: the forum page's side nav on large screens,
 * and each community's list in the small screens' forum switcher. onNavigate
 * runs when a forum is chosen (the switcher closes).
 */
export function ForumNav({
  community,
  current,
  onNavigate,
  label,
  wrap = false,
  className,
}: {
  community: ForumNavCommunity
  /** The forum whose page is shown. */
  current?: string
  onNavigate?: () => void
  /** The nav's name; the community's forums by default. */
  label?: string
  /** Long names wrap (the switcher's sheet) instead of ending in an ellipsis (the side nav). */
  wrap?: boolean
  className?: string
}) {
  const { t } = useTranslation()
  if (community.forums.length === 0) return null
  return (
    <nav aria-label={label ?? t('forum.forumsOf')} className={cn('grid gap-1', className)} data-testid="forum-nav">
      <p className="px-2 pb-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground">{community.name}</p>
      {community.forums.map((f) => (
        <Link
          key={f.id}
          to="/communities/$communityId/series/$seriesId"
          params={{ communityId: community.id, seriesId: f.id }}
          aria-current={f.id === current ? 'page' : undefined}
          title={wrap ? undefined : f.name}
          onClick={onNavigate}
          className={cn(
            'rounded-md px-2 py-1.5 text-sm hover:bg-accent hover:text-accent-foreground',
            wrap ? 'break-words' : 'truncate',
            f.id === current && 'bg-accent font-medium text-accent-foreground',
          )}
        >
          {f.name}
        </Link>
      ))}
    </nav>
  )
}
