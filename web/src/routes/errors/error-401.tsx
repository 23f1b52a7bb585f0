import { createFileRoute, Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { MessagePage } from '@/app/error-screens'

export const Route = createFileRoute('/errors/error-401')({
  component: function ErrorPage() {
    const { t } = useTranslation()
    return (
      <MessagePage
        code="401"
        title={t('error.unauthorizedTitle')}
        body={t('error.unauthorizedBody')}
        action={
          <Button asChild>
            <Link to="/home">{t('error.goHome')}</Link>
          </Button>
        }
      />
    )
  },
})
