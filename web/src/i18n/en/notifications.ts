// The notifications bell and list (spec 000 §2.2, §2.5).
import type { components } from '@/api/schema'

// Each kind the bell lists (the document's Notification.type, the server's
// notice table) has its words here: a kind added there without them fails
// the type check instead of showing a key.
type Kind = components['schemas']['Notification']['type']
const byKind = <const T extends Record<Kind, string>>(words: T) => words

export const notifications = {
  open: 'Notifications',
  title: 'Notifications',
  description: 'Comments on your posts, mentions of you and communities you join',
  unread: 'Unread notifications',
  new: 'New',
  anonymous: 'Anonymous',
  action: byKind({
    comment: 'commented on your post',
    mention: 'mentioned you',
    'meetup-invite': 'invited you to a Meet Up',
    'meetup-open': 'scheduled a Meet Up',
    'meetup-seat': 'has a seat for you: you are registered for the Meet Up',
    'forum-access': 'gave you access to the forum',
    'community-join': 'welcomes you: you were added to this community',
  }),
  kind: byKind({
    comment: '{{name}} commented on your post',
    mention: '{{name}} mentioned you',
    'meetup-invite': '{{name}} invited you to a Meet Up',
    'meetup-open': '{{name}} scheduled a Meet Up',
    'meetup-seat': 'A seat is yours in a Meet Up by {{name}}',
    'forum-access': '{{name}} gave you access to a forum',
    'community-join': 'You were added to {{name}}',
  }),
  dismiss: 'Dismiss',
  view: 'View',
  empty: 'No notifications yet',
  failed: 'The notifications could not be loaded.',
} as const
