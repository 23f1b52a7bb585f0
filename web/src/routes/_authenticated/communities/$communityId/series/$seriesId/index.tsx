import { createFileRoute } from '@tanstack/react-router'
import { ForumScreen } from '@/app/forum-screen'
import { isHashtagName } from '@/features/feed/lib/hashtag-filter'
import { forumQuery } from '@/features/forums/api/get-forum'
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
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(forumQuery(params.seriesId))
  },
  component: function ForumRoute() {
    const { communityId, seriesId } = Route.useParams()
    const { checkout, hashtag } = Route.useSearch()
    return <ForumScreen communityId={communityId} seriesId={seriesId} checkout={checkout} hashtag={hashtag} />
  },
})
