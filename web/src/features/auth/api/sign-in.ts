import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

export type SignInInput = { email: string; password: string }

/** signIn opens a session (POST /api/sessions). The email is trimmed (spec 000 §5). */
export async function signIn({ email, password }: SignInInput) {
  return unwrap(await api.POST('/api/sessions', { body: { email: email.trim(), password } }))
}

export const useSignIn = () => useMutation({ mutationFn: signIn, meta: { silent: true } })
