import { createFileRoute } from '@tanstack/react-router'
import { TokenRegistration } from '@/features/auth/components/registration-form'

// Registration from a confirmation token, which needs the address it was sent to.
export const Route = createFileRoute('/_guest/registration/')({
  validateSearch: (s: Record<string, unknown>): { token?: string; email?: string } => ({
    token: typeof s.token === 'string' ? s.token : undefined,
    email: typeof s.email === 'string' ? s.email : undefined,
  }),
  component: function Page() {
    const { token, email } = Route.useSearch()
    return <TokenRegistration token={token} email={email} mode="registration" />
  },
})
