import { useTranslation } from 'react-i18next'
import { Link } from '@tanstack/react-router'
import type { Meeting } from '../api/types'
import { timeFrame } from '../lib/time'

/** MeetupSummary is one upcoming Meet Up in a list: its name (a link to its post), forum and time frame. */
export function MeetupSummary({ meeting: m, onGo, showForum = true }: { meeting: Meeting; onGo?: () => void; showForum?: boolean }) {
  const { t } = useTranslation()
  const { start, end } = timeFrame(m)
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
