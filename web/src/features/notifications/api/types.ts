import type { Schemas } from '@/api/client'

// The notifications list's types, as the server's OpenAPI document gives them.
export type Notification = Schemas['Notification']
export type NotificationList = Schemas['NotificationList']
