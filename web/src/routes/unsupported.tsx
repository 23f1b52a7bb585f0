import { createFileRoute } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { MessagePage } from '@/app/error-screens'

export const Route = createFileRoute('/unsupported')({
  component: function Unsupported() {
    const { t } = useTranslation()
    return (
      <MessagePage
        title={t('unsupported.title')}
        body={t('unsupported.body')}
        action={
          <ul className="flex gap-4 text-sm font-medium text-primary">
            <li><a href="https://www.google.com/chrome/" className="underline-offset-4 hover:underline">Chrome</a></li>
            <li><a href="https://www.mozilla.org/firefox/" className="underline-offset-4 hover:underline">Firefox</a></li>
            <li><a href="https://www.microsoft.com/edge" className="underline-offset-4 hover:underline">Edge</a></li>
          </ul>
        }
      />
    )
  },
})
