import { createFileRoute } from '@tanstack/react-router'
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form'

export const Route = createFileRoute('/_guest/change-password')({
  validateSearch: (s: Record<string, unknown>): { token?: string } => ({ token: typeof s.token === 'string' ? s.token : undefined }),
  component: function Page() {
    const { token } = Route.useSearch()
    return <ResetPasswordForm token={token ?? ''} mode="change" />
  },
})
