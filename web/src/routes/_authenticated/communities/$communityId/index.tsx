import { createFileRoute } from '@tanstack/react-router'
import { CommunityScreen } from '@/app/community-screen'
import { communityQuery } from '@/features/communities/api/get-community'
import { checkoutSearch, type CheckoutSearch } from '@/features/subscriptions/lib/checkout-search'

export const Route = createFileRoute('/_authenticated/communities/$communityId/')({
  // Checkout comes back here with ?checkout=success&session_id=… or ?checkout=canceled.
  validateSearch: (s: Record<string, unknown>): CheckoutSearch => checkoutSearch(s),
  // Start the read early; the page shows its skeleton, and sends the user
  // home itself when the community cannot be read (spec 000 §2.1).
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(communityQuery(params.communityId))
  },
  component: function CommunityRoute() {
    const { communityId } = Route.useParams()
    const { checkout } = Route.useSearch()
    return <CommunityScreen communityId={communityId} checkout={checkout} />
  },
})
