import { useTranslation } from 'react-i18next'
import { CalendarDays } from 'lucide-react'
import { useCurrentUser } from '@/lib/session-context'
import { useMeetings } from '../api/list-meetups'
import { useNotOver } from '../hooks/use-clock'
import { MeetupSummary, type ForumAccess } from './meetup-summary'

/** How many Meet Ups the card shows; the top bar's Upcoming Meet Ups lists them all. */
const SHOWN = 3

/**
 * UpcomingMeetupsCard is Home's card of the next Meet Ups (those the
 * member is invited or registered to, and open ones in their forums), the
 * first SHOWN of the top bar's list. With none upcoming, or the list not
 * read, it shows nothing: Home is about the communities then.
 */
export function UpcomingMeetupsCard({ access }: { access?: ForumAccess }) {
  const { t } = useTranslation()
  const list = useMeetings(undefined, !!useCurrentUser())
  const next = useNotOver(list.data?.results ?? []).slice(0, SHOWN)
  if (next.length === 0) return null
  return (
    <section className="mb-6 rounded-xl border bg-card p-5 text-card-foreground" aria-labelledby="home-upcoming" data-testid="upcoming-card">
      <h2 id="home-upcoming" className="mb-3 flex items-center gap-2 text-lg font-semibold">
        <CalendarDays aria-hidden className="size-5 text-primary" />
        {t('meetups.upcoming.title')}
      </h2>
      <ul className="grid divide-y">
        {next.map((m) => (
          <li key={m.roomId} className="py-2 first:pt-0 last:pb-0">
            <MeetupSummary meeting={m} subscribe={access?.(m.seriesId) === false} />
          </li>
        ))}
      </ul>
    </section>
  )
}
