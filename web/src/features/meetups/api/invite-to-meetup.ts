import { api, unwrap } from '@/api/client'
import type { InviteeRole } from './types'

/** invite is PATCH /api/meetings/{roomId}/invite: each invitee's role (adding them when new), or null to remove them. */
export const invite = async (roomId: string, invitees: Record<string, InviteeRole | null>) =>
  unwrap(await api.PATCH('/api/meetings/{roomId}/invite', { params: { path: { roomId } }, body: { invitees } }))
