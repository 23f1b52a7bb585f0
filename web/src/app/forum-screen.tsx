import { useMyCommunities } from '@/features/communities/api/get-my-communities'
import { AISearchBox } from '@/features/ai-search/components/ai-search-box'
import { ForumFeed } from '@/features/feed/components/forum-feed'
import { FeedExtensionsProvider, type FeedExtensions } from '@/features/feed/lib/extensions'
import { ForumPage, type ForumPageProps } from '@/features/forums/components/forum-page'
import { meetingOf } from '@/features/meetups/api/types'
import { MeetupPost } from '@/features/meetups/components/meetup-post'
import { ScheduleMeetupButton } from '@/features/meetups/components/schedule-button'
import { UpNextCard } from '@/features/meetups/components/up-next-card'

export type ForumScreenProps = Pick<ForumPageProps, 'seriesId' | 'communityId' | 'postId' | 'reason'>

/**
 * ForumScreen is the forum page of the forum routes, joined here with what
 * four other features bring: the feed and, above each channel's feed, the
 * AI search box; the Meet Ups (the Schedule Meet Up button, the Meet Up
 * posts, the Up next card); and the forum's community from the user's
 * community list.
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
        <FeedExtensionsProvider value={meetupExtensions}>
          {!postId && <UpNextCard series={forum} />}
          <ForumFeed
            series={forum}
            postId={postId}
            reason={reason}
            search={(channelId) => <AISearchBox key={`ai-search-${channelId}`} channelId={channelId} communityId={forum.context.communityId} seriesId={forum.id} />}
          />
        </FeedExtensionsProvider>
      )}
    />
  )
}

/** What the Meet Ups feature adds to the feed. */
const meetupExtensions: FeedExtensions = {
  composerButtons: (series) => <ScheduleMeetupButton series={series} />,
  meeting: (thread) => {
    const m = meetingOf(thread)
    return m && <MeetupPost meeting={m} series={{ id: m.seriesId, name: m.context.seriesName, role: 'member' }} />
  },
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
