import { createContext, useContext } from 'react'

// The profile dialog (spec 000 §2.4, 002 §2) opens from avatars, mention
// chips, member lists and the team panel, which live in several features;
// the app layer mounts the one dialog and hands its opener down here, so
// that no feature imports another.

/** OpenProfile opens the profile dialog of a user. */
export type OpenProfile = (userId: string) => void

export const ProfileOpenerContext = createContext<OpenProfile | undefined>(undefined)

/** useOpenProfile is the opener, or undefined where no dialog is mounted (the people then open nothing). */
export const useOpenProfile = () => useContext(ProfileOpenerContext)
