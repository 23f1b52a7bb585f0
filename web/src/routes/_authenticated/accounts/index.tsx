import { createFileRoute } from '@tanstack/react-router'
import { OrganizationsPage } from '@/features/organizations/components/organizations-page'

export const Route = createFileRoute('/_authenticated/accounts/')({
  component: OrganizationsPage,
})
