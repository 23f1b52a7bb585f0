import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

export async function resetPassword({ token, password }: { token: string; password: string }) {
  return unwrap(await api.POST('/api/tokens/passwordReset/{token}/use', { params: { path: { token } }, body: { password } }))
}

export const useResetPassword = () => useMutation({ mutationFn: resetPassword, meta: { silent: true } })
