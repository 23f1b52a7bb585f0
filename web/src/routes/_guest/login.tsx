import { createFileRoute } from '@tanstack/react-router'
import { LoginForm } from '@/features/auth/components/login-form'

type Search = { redirect?: string; token?: string }

export const Route = createFileRoute('/_guest/login')({
  validateSearch: (s: Record<string, unknown>): Search => ({
    redirect: typeof s.redirect === 'string' ? s.redirect : undefined,
    token: typeof s.token === 'string' ? s.token : undefined,
  }),
  component: function Login() {
    const { redirect } = Route.useSearch()
    return <LoginForm redirect={redirect} />
  },
})
