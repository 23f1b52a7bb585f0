import { describe, expect, it } from 'vitest'
import type { MyCommunity } from '@/features/communities/api/get-my-communities'
import { showSubscriptions } from './subscriptions-link'

const community = (isSubscribed: boolean, forums: boolean[] = []) =>
  ({ isSubscribed, series: forums.map((f, i) => ({ id: `f${i}`, isSubscribed: f })) }) as unknown as MyCommunity

describe('the Subscriptions entry (spec 000 §2.1)', () => {
  it('shows to a member with subscriptions, or with a community or forum to pay for', () => {
    expect(showSubscriptions(2, [community(true)])).toBe(true)
    expect(showSubscriptions(0, [community(false)])).toBe(true)
    expect(showSubscriptions(0, [community(true, [true, false])])).toBe(true)
  })

  it('does not show to those who never pay, nor before anything is known', () => {
    expect(showSubscriptions(0, [community(true, [true, true])])).toBe(false)
    expect(showSubscriptions(undefined, undefined)).toBe(false)
  })
})
