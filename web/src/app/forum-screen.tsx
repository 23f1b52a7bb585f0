import { useCallback } from 'react'
import { useNavigate } from '@tanstack/react-router'
import { useMyCommunities } from '@/features/communities/api/get-my-communities'
import { communityForums } from '@/features/communities/hooks/community-list'
import { AISearchBox } from '@/features/ai-search/components/ai-search-box'
import { ForumFeed } from '@/features/feed/components/forum-feed'
import { FeedExtensionsProvider, type FeedExtensions } from '@/features/feed/lib/extensions'
import { ForumPage, type ForumPageProps } from '@/features/forums/components/forum-page'
import { meetingOf } from '@/features/meetups/api/types'
import { MeetupPost } from '@/features/meetups/components/meetup-post'
import { ScheduleMeetupButton } from '@/features/meetups/components/schedule-button'
import { UpNextCard } from '@/features/meetups/components/up-next-card'
import { SubscribeFlow, type CheckoutReturn, type SubscribeFlowProps } from '@/features/subscriptions/components/subscribe-flow'

export type ForumScreenProps = Pick<ForumPageProps, 'seriesId' | 'communityId' | 'postId' | 'reason' | 'reply'> & {
  /** What checkout's return says (`?checkout=`), on the forum's page. */
  checkout?: CheckoutReturn
  /** The hashtag whose posts the feed shows (`?hashtag=`). */
  hashtag?: string
}

/**
 * ForumScreen is the forum page of the forum routes, joined here with what
 * five other features bring: the feed and, above each channel's feed, the
 * AI search box; the Meet Ups (the Schedule Meet Up button, the Meet Up
 * posts, the Up next card); the forum's community from the user's
 * community list; and the subscribe flow for a member without access.
 */
export function ForumScreen({ seriesId, communityId, postId, reason, reply, checkout, hashtag }: ForumScreenProps) {
  const { community, pending: communityPending } = useForumCommunity(communityId)
  const navigate = useNavigate()
  // Checkout's return is said once: a reload does not wait again.
  const forget = useCallback(
    () => void navigate({ to: '/communities/$communityId/series/$seriesId', params: { communityId, seriesId }, search: {}, replace: true }),
    [navigate, communityId, seriesId],
  )
  // A clicked hashtag shows its posts on the forum's page (from a single
  // post too), in the address so that Back returns to all posts.
  const showHashtag = useCallback(
    (name: string | undefined) =>
      void navigate({ to: '/communities/$communityId/series/$seriesId', params: { communityId, seriesId }, search: name ? { hashtag: name } : {} }),
    [navigate, communityId, seriesId],
  )
  return (
    <ForumPage
      seriesId={seriesId}
      communityId={communityId}
      community={community && { name: community.name, forums: community.forums }}
      postId={postId}
      reason={reason}
      reply={reply}
      feed={(forum) => (
        <FeedExtensionsProvider value={meetupExtensions}>
          {!postId && <UpNextCard series={forum} />}
          <ForumFeed
            series={forum}
            postId={postId}
            reason={reason}
            reply={reply}
            hashtag={hashtag}
            onHashtag={showHashtag}
            search={(channelId) => <AISearchBox key={`ai-search-${channelId}`} channelId={channelId} communityId={forum.context.communityId} seriesId={forum.id} />}
          />
        </FeedExtensionsProvider>
      )}
      subscribe={(forum, recheck) =>
        // The prompt waits for the community list, which says whether the
        // community comes with the forum: its items and total do not change
        // under the member's eyes.
        !communityPending && (
          <SubscribeFlow
            product={{ id: forum.id, kind: 'forum', name: forum.name, price: forum.price, currency: forum.currency, isFree: forum.isFree }}
            community={community?.product}
            subscribed={forum.isSubscribed}
            checkout={postId ? undefined : checkout}
            recheck={recheck}
            onCheckoutSeen={forget}
          />
        )
      }
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
 * its price and the member's access to it for the subscribe prompt, which
 * lists it when the member pays for it with the forum).
 */
function useForumCommunity(communityId: string) {
  const { data, isPending } = useMyCommunities()
  const c = data?.results.find((x) => x.id === communityId)
  if (!c) return { pending: isPending, community: undefined }
  const product: SubscribeFlowProps['community'] = {
    id: c.id,
    kind: 'community',
    name: c.name,
    price: c.price,
    currency: c.currency,
    isFree: c.isFree,
    isSubscribed: c.isSubscribed,
  }
  return { pending: false, community: { ...communityForums(c), product } }
}
