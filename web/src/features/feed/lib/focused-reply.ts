import { createContext } from 'react'

/**
 * FocusedReply is the comment or reply a notification's View opened the
 * post at (?reply=): the comment section scrolls to it and marks it.
 */
export const FocusedReply = createContext<string | undefined>(undefined)
