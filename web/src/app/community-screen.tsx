import { CommunityPage } from '@/features/communities/components/community-page'
import { CreateForumDialog } from '@/features/forums/components/edit-forum-dialog'

/**
 * CommunityScreen is the community page (communities) with the forum form
 * (forums) for its Create forum button.
 */
export function CommunityScreen({ communityId }: { communityId: string }) {
  return <CommunityPage communityId={communityId} createForum={(p) => <CreateForumDialog {...p} />} />
}
