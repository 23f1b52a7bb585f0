import { createFileRoute } from '@tanstack/react-router'
import { ForumScreen } from '@/app/forum-screen'
import { forumQuery } from '@/features/forums/api/get-forum'

export const Route = createFileRoute('/_authenticated/communities/$communityId/series/$seriesId/posts/$postId')({
  validateSearch: (s: Record<string, unknown>): { reason?: 'comment' | 'mention' } => ({
    reason: s.reason === 'comment' || s.reason === 'mention' ? s.reason : undefined,
  }),
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(forumQuery(params.seriesId))
  },
  // The forum page opened on one post, its comments expanded; a
  // notification link says why with ?reason= (spec 001 §2).
  component: function ForumPostRoute() {
    const { communityId, seriesId, postId } = Route.useParams()
    const { reason } = Route.useSearch()
    return <ForumScreen communityId={communityId} seriesId={seriesId} postId={postId} reason={reason} />
  },
})
