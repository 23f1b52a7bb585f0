import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

export type RegisterInput = { token: string; firstName: string; lastName: string; password: string; email?: string }

/** register creates the account from a token and signs it in (POST /api/users?token=). */
export async function register({ token, ...body }: RegisterInput) {
  return unwrap(await api.POST('/api/users', { params: { query: { token } }, body }))
}

export const useRegister = () => useMutation({ mutationFn: register, meta: { silent: true } })
