import { createFileRoute } from '@tanstack/react-router'
import { RegistrationError } from '@/features/auth/components/registration-error'

export const Route = createFileRoute('/_guest/registration/error/$errorCode')({
  component: function Page() {
    const { errorCode } = Route.useParams()
    return <RegistrationError code={errorCode} mode="registration" />
  },
})
