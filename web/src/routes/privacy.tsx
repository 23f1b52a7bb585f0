import { createFileRoute } from '@tanstack/react-router'
import { LegalPage } from '@/features/legal/components/legal-page'

// Open to everyone, signed in or not (neither _guest nor _authenticated).
export const Route = createFileRoute('/privacy')({
  component: () => <LegalPage page="privacy" />,
})
