import { createFileRoute, redirect } from '@tanstack/react-router'
import { HOME_PATH } from '@/lib/redirect'

// / goes to the home path, which is not shown (spec 000 §2.1).
export const Route = createFileRoute('/')({
  beforeLoad: () => {
    throw redirect({ to: HOME_PATH, replace: true })
  },
})
