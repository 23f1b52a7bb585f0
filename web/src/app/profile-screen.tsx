import { ProfilePage } from '@/features/profile/components/profile-page'
import { useMyCommunities } from '@/features/communities/api/get-my-communities'
import { manageable } from '@/features/communities/hooks/community-list'

/**
 * ProfileScreen is the profile page (profile) told whether the person
 * administers a forum (communities), as the right panel's Insights tab is:
 * an admin of one of their forums, or of a community of theirs.
 */
export function ProfileScreen() {
  const communities = useMyCommunities()
  const forumAdmin = !!communities.data?.results.some((c) => manageable(c) || c.series.some((f) => f.role === 'admin'))
  return <ProfilePage forumAdmin={forumAdmin} />
}
