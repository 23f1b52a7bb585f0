import { Trans } from 'react-i18next'
import { Link } from '@tanstack/react-router'

const link = 'font-medium text-primary underline-offset-4 hover:underline'

/** TermsNotice is the agreement line of the sign-in and registration forms, linking to both pages. */
export function TermsNotice({ action }: { action: 'signIn' | 'register' }) {
  return (
    <p className="text-xs text-muted-foreground">
      <Trans i18nKey={`auth.terms.${action}`} components={{ terms: <Link to="/terms" className={link} />, privacy: <Link to="/privacy" className={link} /> }} />
    </p>
  )
}
