import { createFileRoute } from '@tanstack/react-router'
import { RegistrationError } from '@/features/auth/components/registration-error'

export const Route = createFileRoute('/accept-invitation/error/$errorCode')({
  component: function Page() {
    const { errorCode } = Route.useParams()
    return <RegistrationError code={errorCode} mode="invitation" />
  },
})
