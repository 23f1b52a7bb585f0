import { api, unwrap } from '@/api/client'
import type { ProfilePatch } from './types'

export async function updateProfile(id: string, body: ProfilePatch) {
  unwrap(await api.PATCH('/api/profiles/{id}', { params: { path: { id } }, body }))
}

