import { useEffect } from 'react'
import { createFileRoute } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { useSessionStore } from '@/lib/session-context'

// /logout signs out whoever is signed in, then shows the sign-in page.
export const Route = createFileRoute('/logout')({
  component: function Logout() {
    const { t } = useTranslation()
    const session = useSessionStore()
    const navigate = Route.useNavigate()
    useEffect(() => {
      if (session.isAuthenticated) void session.signOut()
      else void navigate({ to: '/login', replace: true })
    }, [session, navigate])
    return <p className="p-6 text-sm text-muted-foreground" role="status">{t('auth.signingOut')}</p>
  },
})
