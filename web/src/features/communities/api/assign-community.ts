import { api, unwrap } from '@/api/client'
import type { AssignmentChange } from './types'

/** assign gives the people named their role, or none (POST /communities/{id}/assignments); it answers how many changed. */
export async function assign(communityId: string, body: AssignmentChange[]) {
  return unwrap(await api.POST('/api/communities/{communityId}/assignments', { params: { path: { communityId } }, body }))
}
