import { createFileRoute } from '@tanstack/react-router'
import { ForumScreen } from '@/app/forum-screen'
import { forumQuery } from '@/features/forums/api/get-forum'

export const Route = createFileRoute('/_authenticated/communities/$communityId/series/$seriesId/')({
  // Start the read early; the page shows its skeleton, and sends the user
  // home itself when the forum cannot be read (spec 001 §2).
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(forumQuery(params.seriesId))
  },
  component: function ForumRoute() {
    const { communityId, seriesId } = Route.useParams()
    return <ForumScreen communityId={communityId} seriesId={seriesId} />
  },
})

