import { useTranslation } from 'react-i18next'
import { Check, X } from 'lucide-react'
import { passwordRules } from '@/lib/password'
import { cn } from '@/lib/utils'

/** PasswordRules lists the password rules live, marking each met or not. */
export function PasswordRules({ password, id }: { password: string; id?: string }) {
  const { t } = useTranslation()
  return (
    <div id={id} className="text-xs" aria-live="polite">
      <p className="mb-1 text-muted-foreground">{t('auth.rulesTitle')}</p>
      <ul className="grid gap-0.5" data-testid="password-rules">
        {passwordRules(password).map((r) => (
          <li key={r.key} className={cn('flex items-center gap-1.5', r.ok ? 'text-success' : 'text-muted-foreground')} data-ok={r.ok}>
            {r.ok ? <Check className="size-3.5" aria-hidden /> : <X className="size-3.5" aria-hidden />}
            <span>
              {t(`auth.rules.${r.key}`)}
              <span className="sr-only"> ({r.ok ? t('auth.ruleMet') : t('auth.ruleNotMet')})</span>
            </span>
          </li>
        ))}
      </ul>
      <p className="mt-1 text-muted-foreground">{t('auth.rulesHint')}</p>
    </div>
  )
}
