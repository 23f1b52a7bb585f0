import { createFileRoute } from '@tanstack/react-router'
import { CommunityScreen } from '@/app/community-screen'
import { communityQuery } from '@/features/communities/api/get-community'

export const Route = createFileRoute('/_authenticated/communities/$communityId/')({
  // Start the read early; the page shows its skeleton, and sends the user
  // home itself when the community cannot be read (spec 000 §2.1).
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(communityQuery(params.communityId))
  },
  component: function CommunityRoute() {
    const { communityId } = Route.useParams()
    return <CommunityScreen communityId={communityId} />
  },
})
