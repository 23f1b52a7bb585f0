import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

/** requestPasswordReset mails a reset link; the answer is neutral either way. */
export async function requestPasswordReset(email: string) {
  return unwrap(await api.POST('/api/tokens/passwordReset', { body: { email: email.trim() } }))
}

export const useRequestPasswordReset = () => useMutation({ mutationFn: requestPasswordReset, meta: { silent: true } })
