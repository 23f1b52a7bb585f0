import { createFileRoute } from '@tanstack/react-router'
import { useForumAccess } from '@/app/shell/forum-access'
import { HomePage } from '@/features/communities/components/home-page'
import { UpcomingMeetupsCard } from '@/features/meetups/components/upcoming-card'
import { myCommunitiesQuery } from '@/features/communities/api/get-my-communities'
import type { CommunityFilter, CommunitySort } from '@/features/communities/hooks/community-list'

type Search = { filter?: CommunityFilter; sort?: CommunitySort }

export const Route = createFileRoute('/_authenticated/home')({
  validateSearch: (s: Record<string, unknown>): Search => ({
    filter: s.filter === 'new' || s.filter === 'visited' || s.filter === 'all' ? s.filter : undefined,
    sort: s.sort === 'latest' || s.sort === 'event' ? s.sort : undefined,
  }),
  // Start the request early; the page shows its skeleton, and its own error
  // fallback, rather than blocking navigation on it.
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(myCommunitiesQuery())
  },
  component: function Home() {
    const { filter = 'all', sort = 'event' } = Route.useSearch()
    const access = useForumAccess()
    return <HomePage filter={filter} sort={sort} upcoming={<UpcomingMeetupsCard access={access} />} />
  },
})
