import { useMyCommunities } from '@/features/communities/api/get-my-communities'
import type { ForumPageProps } from '@/features/forums/components/forum-page'

/**
 * useForumCommunity is the forum's community from the user's community list
 * (its name for the page and the post tagline, its forums for the side nav,
 * its price for the subscribe prompt). The forum routes join the two
 * features here (the '-' keeps this file out of the route tree); the API
 * has no single-community read yet.
 */
export function useForumCommunity(communityId: string): ForumPageProps['community'] {
  const { data } = useMyCommunities()
  const c = data?.results.find((x) => x.id === communityId)
  return c && { name: c.name, price: c.price, currency: c.currency, forums: c.series.map((f) => ({ id: f.id, name: f.name })) }
}
