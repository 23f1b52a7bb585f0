// The notifications bell and list (spec 000 §2.2, §2.5).
export const notifications = {
  open: 'Notifications',
  title: 'Notifications',
  description: 'Comments on your posts and mentions of you',
  unread: 'Unread notifications',
  new: 'New',
  anonymous: 'Anonymous',
  action: { comment: 'commented on your post', mention: 'mentioned you' },
  kind: { comment: '{{name}} commented on your post', mention: '{{name}} mentioned you' },
  dismiss: 'Dismiss',
  view: 'View',
  empty: 'No notifications yet',
  failed: 'The notifications could not be loaded.',
} as const
