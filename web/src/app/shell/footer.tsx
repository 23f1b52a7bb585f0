import { useTranslation } from 'react-i18next'
import { Link } from '@tanstack/react-router'

/** Footer closes the community pages in place of the side panel (spec 000 §2.1): the legal pages. */
export function Footer() {
  const { t } = useTranslation()
  const link = 'underline-offset-2 hover:underline'
  return (
    <footer className="border-t px-4 py-4 text-sm text-muted-foreground" data-testid="footer">
      <nav aria-label={t('app.footer')} className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-4 gap-y-1">
        <span>© Agora</span>
        <Link to="/terms" className={link}>
          {t('legal.link.terms')}
        </Link>
        <Link to="/privacy" className={link}>
          {t('legal.link.privacy')}
        </Link>
      </nav>
    </footer>
  )
}
