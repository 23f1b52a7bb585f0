import { createFileRoute, Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { MessagePage } from '@/app/error-screens'

export const Route = createFileRoute('/errors/error-500')({
  component: function ErrorPage() {
    const { t } = useTranslation()
    return (
      <MessagePage
        code="500"
        title={t('error.serverTitle')}
        body={t('error.serverBody')}
        action={
          <Button asChild>
            <Link to="/home">{t('error.goHome')}</Link>
          </Button>
        }
      />
    )
  },
})
