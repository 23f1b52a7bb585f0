import { useTranslation } from 'react-i18next'
import { Link } from '@tanstack/react-router'
import { Button } from '@/components/ui/button'
import type { Meeting } from '../api/types'
import { timeFrame } from '../lib/time'

/**
 * ForumAccess tells whether the member has access to a forum's content, as
 * the app knows it (the forums of their community list): false for a forum
 * they have not subscribed to, undefined when it is not known.
 */
export type ForumAccess = (seriesId: string) => boolean | undefined

/**
 * MeetupSummary is one upcoming Meet Up in a list: its name (a link to its
 * post), forum and time frame. For a forum the member has no access to,
 * Subscribe replaces the way to the Meet Up (spec 000 §6): it opens the
 * forum's page, whose subscribe prompt takes it from there.
 */
export function MeetupSummary({ meeting: m, onGo, showForum = true, subscribe = false }: { meeting: Meeting; onGo?: () => void; showForum?: boolean; subscribe?: boolean }) {
  const { t } = useTranslation()
  const { start, end } = timeFrame(m)
  if (subscribe)
    return (
      <div className="flex items-center gap-3" data-testid="meetup-summary">
        <div className="grid min-w-0 flex-1 gap-0.5">
          <span className="truncate font-medium">{m.name}</span>
          <span className="text-xs text-muted-foreground">
            {showForum && <>{m.context.seriesName} · </>}
            {t('meetups.timeFrame', { start, end })}
          </span>
        </div>
        <Button asChild size="sm" variant="outline">
          <Link
            to="/communities/$communityId/series/$seriesId"
            params={{ communityId: m.context.communityId, seriesId: m.seriesId }}
            onClick={onGo}
            aria-label={t('meetups.subscribeTo', { forum: m.context.seriesName })}
          >
            {t('meetups.subscribe')}
          </Link>
        </Button>
      </div>
    )
  return (
    <div className="grid gap-0.5" data-testid="meetup-summary">
      <Link
        to="/communities/$communityId/series/$seriesId/posts/$postId"
        params={{ communityId: m.context.communityId, seriesId: m.seriesId, postId: m.postId }}
        className="truncate font-medium hover:underline"
        onClick={onGo}
      >
        {m.name}
      </Link>
      <span className="text-xs text-muted-foreground">
        {showForum && <>{m.context.seriesName} · </>}
        {t('meetups.timeFrame', { start, end })}
      </span>
    </div>
  )
}
