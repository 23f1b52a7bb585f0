import { useCallback } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import type { Role, User } from '@/api/client'
import { setTimeZoneIfEmpty } from '@/lib/personalization'
import { useSessionStore } from '@/lib/session-context'

/**
 * useSignedIn keeps the session of a sign-in or a registration, then, in
 * the background, gives the member the browser's time zone if they have
 * none (spec 000 §7).
 */
export function useSignedIn() {
  const session = useSessionStore()
  const qc = useQueryClient()
  return useCallback(
    (body: { accessToken: string; user: User; role: Role }) => {
      session.signedIn(body)
      void setTimeZoneIfEmpty(qc, body.user.id)
    },
    [session, qc],
  )
}
