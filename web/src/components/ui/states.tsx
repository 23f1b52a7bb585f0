import * as React from 'react'
import { useTranslation } from 'react-i18next'
import { Inbox, TriangleAlert } from 'lucide-react'
import { cn } from '@/lib/utils'
import { Button } from './button'

/** EmptyState is a list's watermark when it has nothing to show. */
export function EmptyState({ icon, children, className }: { icon?: React.ReactNode; children: React.ReactNode; className?: string }) {
  return (
    <div className={cn('flex flex-col items-center justify-center gap-2 py-10 text-center text-sm text-muted-foreground', className)} data-testid="empty-state">
      <span aria-hidden className="text-muted-foreground/70 [&_svg]:size-8">
        {icon ?? <Inbox />}
      </span>
      {children}
    </div>
  )
}

/** ErrorFallback is a list's error state with a retry action. */
export function ErrorFallback({ message, onRetry, className }: { message?: React.ReactNode; onRetry?: () => void; className?: string }) {
  const { t } = useTranslation()
  return (
    <div role="alert" className={cn('flex flex-col items-center justify-center gap-3 py-10 text-center text-sm', className)} data-testid="error-fallback">
      <TriangleAlert aria-hidden className="size-8 text-destructive" />
      <p>{message ?? t('error.genericMessage')}</p>
      {onRetry && (
        <Button variant="outline" size="sm" onClick={onRetry}>
          {t('error.retry')}
        </Button>
      )}
    </div>
  )
}
