import { createFileRoute } from '@tanstack/react-router'
import { ForumScreen } from '@/app/forum-screen'
import { forumQuery } from '@/features/forums/api/get-forum'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const Route = createFileRoute('/_authenticated/communities/$communityId/series/$seriesId/posts/$postId')({
  validateSearch: (s: Record<string, unknown>): { reason?: 'comment' | 'mention'; reply?: string } => ({
    reason: s.reason === 'comment' || s.reason === 'mention' ? s.reason : undefined,
    reply: typeof s.reply === 'string' && UUID.test(s.reply) ? s.reply : undefined,
  }),
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(forumQuery(params.seriesId))
  },
  // The forum page opened on one post, its comments expanded; a
  // notification link says why with ?reason= (spec 001 §2), and which
  // comment or reply it is about with ?reply=, scrolled to and marked.
  component: function ForumPostRoute() {
    const { communityId, seriesId, postId } = Route.useParams()
    const { reason, reply } = Route.useSearch()
    return <ForumScreen communityId={communityId} seriesId={seriesId} postId={postId} reason={reason} reply={reply} />
  },
})
