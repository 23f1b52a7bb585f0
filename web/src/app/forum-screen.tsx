import { useMyCommunities } from '@/features/communities/api/get-my-communities'
import { AISearchBox } from '@/features/ai-search/components/ai-search-box'
import { ForumFeed } from '@/features/feed/components/forum-feed'
import { ForumPage, type ForumPageProps } from '@/features/forums/components/forum-page'

export type ForumScreenProps = Pick<ForumPageProps, 'seriesId' | 'communityId' | 'postId' | 'reason'>

/**
 * ForumScreen is the forum page of the forum routes, joined here with what
 * three other features bring: the feed and, above each channel's feed, the
 * AI search box; and the forum's community from the user's community list.
 */
export function ForumScreen({ seriesId, communityId, postId, reason }: ForumScreenProps) {
  return (
    <ForumPage
      seriesId={seriesId}
      communityId={communityId}
      community={useForumCommunity(communityId)}
      postId={postId}
      reason={reason}
      feed={(forum) => (
        <ForumFeed
          series={forum}
          postId={postId}
          reason={reason}
          search={(channelId) => <AISearchBox key={`ai-search-${channelId}`} channelId={channelId} communityId={forum.context.communityId} seriesId={forum.id} />}
        />
      )}
    />
  )
}

/**
 * useForumCommunity is the forum's community from the user's community list
 * (its name for the page and the post tagline, its forums for the side nav,
 * its price for the subscribe prompt): the API has no single-community read
 * yet.
 */
function useForumCommunity(communityId: string): ForumPageProps['community'] {
  const { data } = useMyCommunities()
  const c = data?.results.find((x) => x.id === communityId)
  return c && { name: c.name, price: c.price, currency: c.currency, forums: c.series.map((f) => ({ id: f.id, name: f.name })) }
}
