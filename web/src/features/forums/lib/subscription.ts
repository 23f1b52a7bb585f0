import type { Forum } from '@/features/forums/api/get-forum'

// Apart from the forum page so that the forum route's loader, which is in
// the app's first chunk, does not bring the page's code into it.

/**
 * needsSubscription: the subscribe prompt opens for a member who is not
 * subscribed (spec 001 §2), and the forum's posts are not asked for (the
 * server answers them 404 until the member has access). Forum admins are
 * not asked: the admins of the community or organization read every forum
 * without being members of it, so they have no subscription, and the page
 * is theirs to manage.
 */
export const needsSubscription = (f: Forum) => !f.isSubscribed && f.role !== 'admin'
