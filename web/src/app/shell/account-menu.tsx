import { useTranslation } from 'react-i18next'
import { useNavigate } from '@tanstack/react-router'
import { LogOut, User as UserIcon } from 'lucide-react'
import { DropdownMenuItem, DropdownMenuLabel, DropdownMenuRadioGroup, DropdownMenuRadioItem, DropdownMenuSeparator } from '@/components/ui/dropdown-menu'
import { useSignOut } from '@/features/auth/hooks/use-sign-out'
import { useCurrentUser } from '@/lib/session-context'
import { setTheme, useTheme, type Theme } from '@/lib/theme'

/** AccountHeader is the account menu's first line: the member's name and e-mail. */
export function AccountHeader() {
  const me = useCurrentUser()
  if (!me) return null
  return (
    <DropdownMenuLabel className="font-normal">
      <p className="truncate text-sm font-medium">
        {me.user.firstName} {me.user.lastName}
      </p>
      <p className="truncate text-xs text-muted-foreground">{me.user.email}</p>
    </DropdownMenuLabel>
  )
}

/**
 * AccountItems are the avatar menu's entries (spec 000 §2.2): Profile, the
 * theme and Sign out; in the avatar menu of wide screens, and at the end of
 * the small screens' top bar menu.
 */
export function AccountItems() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const signOut = useSignOut()
  const theme = useTheme()
  return (
    <>
      <DropdownMenuItem onSelect={() => void navigate({ to: '/profile' })}>
        <UserIcon aria-hidden />
        {t('nav.profile')}
      </DropdownMenuItem>
      <DropdownMenuSeparator />
      <DropdownMenuLabel className="text-xs text-muted-foreground">{t('nav.theme')}</DropdownMenuLabel>
      <DropdownMenuRadioGroup value={theme} onValueChange={(v) => setTheme(v as Theme)}>
        <DropdownMenuRadioItem value="light">{t('nav.light')}</DropdownMenuRadioItem>
        <DropdownMenuRadioItem value="dark">{t('nav.dark')}</DropdownMenuRadioItem>
        <DropdownMenuRadioItem value="system">{t('nav.system')}</DropdownMenuRadioItem>
      </DropdownMenuRadioGroup>
      <DropdownMenuSeparator />
      <DropdownMenuItem onSelect={() => void signOut()} data-testid="sign-out">
        <LogOut aria-hidden />
        {t('nav.signOut')}
      </DropdownMenuItem>
    </>
  )
}
