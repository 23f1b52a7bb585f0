import { api, unwrap } from '@/api/client'
import type { BulkAssignment } from './types'

/** assignBulk gives everyone the filter selects one role, or removes them (roleId null) (POST /communities/{id}/assignments/bulk); it answers how many changed. */
export async function assignBulk(communityId: string, body: BulkAssignment) {
  return unwrap(await api.POST('/api/communities/{communityId}/assignments/bulk', { params: { path: { communityId } }, body }))
}
