import { createFileRoute } from '@tanstack/react-router'
import { ProfileScreen } from '@/app/profile-screen'

export const Route = createFileRoute('/_authenticated/profile')({ component: ProfileScreen })
