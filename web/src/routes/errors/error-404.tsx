import { createFileRoute, Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { MessagePage } from '@/app/error-screens'

export const Route = createFileRoute('/errors/error-404')({
  component: function ErrorPage() {
    const { t } = useTranslation()
    return (
      <MessagePage
        code="404"
        title={t('error.notFoundTitle')}
        body={t('error.notFoundBody')}
        action={
          <Button asChild>
            <Link to="/home">{t('error.goHome')}</Link>
          </Button>
        }
      />
    )
  },
})
