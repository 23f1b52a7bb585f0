import { useTranslation } from 'react-i18next'
import { Moon, Sun } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { setTheme, useTheme } from '@/lib/theme'

/** ThemeToggle switches between light and dark. */
export function ThemeToggle() {
  const { t } = useTranslation()
  const theme = useTheme()
  const dark = theme === 'dark' || (theme === 'system' && typeof window !== 'undefined' && window.matchMedia?.('(prefers-color-scheme: dark)').matches)
  return (
    <Button variant="ghost" size="icon" aria-label={t('theme.toggle')} onClick={() => setTheme(dark ? 'light' : 'dark')} data-testid="theme-toggle">
      {dark ? <Sun aria-hidden /> : <Moon aria-hidden />}
    </Button>
  )
}
