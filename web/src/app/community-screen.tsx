import { useCallback } from 'react'
import { useNavigate } from '@tanstack/react-router'
import { CommunityPage } from '@/features/communities/components/community-page'
import { CreateForumDialog } from '@/features/forums/components/edit-forum-dialog'
import { SubscribeFlow, type CheckoutReturn } from '@/features/subscriptions/components/subscribe-flow'

/**
 * CommunityScreen is the community page (communities) with the forum form
 * (forums) for its Create forum button, and the subscribe flow
 * (subscriptions) for a member without access to a paid community.
 */
export function CommunityScreen({ communityId, checkout }: { communityId: string; checkout?: CheckoutReturn }) {
  const navigate = useNavigate()
  // Checkout's return is said once: a reload does not wait again.
  const forget = useCallback(() => void navigate({ to: '/communities/$communityId', params: { communityId }, search: {}, replace: true }), [navigate, communityId])
  return (
    <CommunityPage
      communityId={communityId}
      createForum={(p) => <CreateForumDialog {...p} />}
      subscribe={(c, recheck) => (
        <SubscribeFlow
          product={{ id: c.id, kind: 'community', name: c.name, price: c.price, currency: c.currency, isFree: c.isFree }}
          subscribed={c.isSubscribed}
          opens={c.series}
          checkout={checkout}
          recheck={recheck}
          onCheckoutSeen={forget}
        />
      )}
    />
  )
}
