import { looseApi, unwrap } from '@/api/client'
import type { ProfilePatch } from './types'

export async function updateProfile(id: string, body: ProfilePatch) {
  unwrap(await looseApi.PATCH('/api/profiles/{id}', { params: { path: { id } }, body }))
}

