import { createFileRoute } from '@tanstack/react-router'
import { ForumScreen } from '@/app/forum-screen'
import { channelThreadsQuery } from '@/features/feed/api/list-channel-threads'
import { isHashtagName } from '@/features/feed/lib/hashtag-filter'
import { forumQuery } from '@/features/forums/api/get-forum'
import { needsSubscription } from '@/features/forums/lib/subscription'
import { checkoutSearch, type CheckoutSearch } from '@/features/subscriptions/lib/checkout-search'

export const Route = createFileRoute('/_authenticated/communities/$communityId/series/$seriesId/')({
  // Checkout comes back here with ?checkout=success&session_id=… or ?checkout=canceled.
  // A clicked hashtag shows its posts: ?hashtag=name.
  validateSearch: (s: Record<string, unknown>): CheckoutSearch & { hashtag?: string } => ({
    ...checkoutSearch(s),
    hashtag: typeof s.hashtag === 'string' && isHashtagName(s.hashtag) ? s.hashtag : undefined,
  }),
  // Start the read early; the page shows its skeleton, and sends the user
  // home itself when the forum cannot be read (spec 001 §2).
  loader: ({ context, params, location }) => {
    const qc = context.queryClient
    // The feed's first page is asked for as soon as the forum says its
    // channel, not once the page has rendered the feed: a fresh browser's
    // first post came a render and a chunk later.
    const hashtag = (location.search as { hashtag?: string }).hashtag
    // A forum the member has not subscribed to shows no feed, so asks nothing.
    void qc.fetchQuery(forumQuery(params.seriesId)).then(
      (f) => (needsSubscription(f) ? undefined : qc.prefetchInfiniteQuery(channelThreadsQuery(f.mainChannelId, hashtag))),
      () => {}, // the page says why, reading the forum itself
    )
  },
  component: function ForumRoute() {
    const { communityId, seriesId } = Route.useParams()
    const { checkout, hashtag } = Route.useSearch()
    return <ForumScreen communityId={communityId} seriesId={seriesId} checkout={checkout} hashtag={hashtag} />
  },
})
