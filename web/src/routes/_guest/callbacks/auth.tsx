import { createFileRoute } from '@tanstack/react-router'
import { SSOCallback } from '@/features/auth/components/sso-callback'

type Search = { state?: string; code?: string; error?: string }

// Where an organization's identity provider sends the browser back after a
// single sign-on; the API finishes the sign-in (POST /api/sso/callback).
export const Route = createFileRoute('/_guest/callbacks/auth')({
  validateSearch: (s: Record<string, unknown>): Search => ({
    state: typeof s.state === 'string' ? s.state : undefined,
    code: typeof s.code === 'string' ? s.code : undefined,
    error: typeof s.error === 'string' ? s.error : undefined,
  }),
  component: function Callback() {
    const search = Route.useSearch()
    return <SSOCallback {...search} />
  },
})
