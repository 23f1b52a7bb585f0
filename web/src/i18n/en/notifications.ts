// The notifications bell and list (spec 000 §2.2, §2.5).
export const notifications = {
  open: 'Notifications',
  title: 'Notifications',
  description: 'Comments on your posts and mentions of you',
  unread: 'Unread notifications',
  new: 'New',
  anonymous: 'Anonymous',
  action: {
    comment: 'commented on your post',
    mention: 'mentioned you',
    'meetup-invite': 'invited you to a Meet Up',
    'meetup-open': 'scheduled a Meet Up you can register for',
    'meetup-seat': 'has a seat for you: you are registered for the Meet Up',
    'forum-access': 'gave you access to the forum',
  },
  kind: {
    comment: '{{name}} commented on your post',
    mention: '{{name}} mentioned you',
    'meetup-invite': '{{name}} invited you to a Meet Up',
    'meetup-open': '{{name}} scheduled a Meet Up you can register for',
    'meetup-seat': 'A seat is yours in a Meet Up by {{name}}',
    'forum-access': '{{name}} gave you access to a forum',
  },
  dismiss: 'Dismiss',
  view: 'View',
  empty: 'No notifications yet',
  failed: 'The notifications could not be loaded.',
} as const
