import { createFileRoute } from '@tanstack/react-router'
import { TokenRegistration } from '@/features/auth/components/registration-form'

// Open to everyone: an invitation may be accepted signed in or not.
export const Route = createFileRoute('/accept-invitation/')({
  validateSearch: (s: Record<string, unknown>): { token?: string } => ({ token: typeof s.token === 'string' ? s.token : undefined }),
  component: function Page() {
    const { token } = Route.useSearch()
    return <TokenRegistration token={token} mode="invitation" />
  },
})
