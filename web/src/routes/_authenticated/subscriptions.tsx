import { createFileRoute } from '@tanstack/react-router'
import { subscriptionsQuery } from '@/features/subscriptions/api/list-subscriptions'
import { SubscriptionsPage } from '@/features/subscriptions/components/subscriptions-page'

export const Route = createFileRoute('/_authenticated/subscriptions')({
  // Start the read early; the page shows its skeleton and its own error fallback.
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(subscriptionsQuery())
  },
  component: SubscriptionsPage,
})
