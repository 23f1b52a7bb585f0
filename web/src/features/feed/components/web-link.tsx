import { useId, useState, type MouseEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { usePersonalization, useUpdatePersonalization } from '@/lib/personalization'
import { useCurrentUser } from '@/lib/session-context'

/** DONT_CONFIRM_KEY is where the member's "don't ask again" is kept (spec 000 §3). */
export const DONT_CONFIRM_KEY = 'feed.webLink.dontConfirmNavigation'

/**
 * WebLink is a link to another site from a post or comment: it opens in a
 * new tab after the member confirms leaving for that site, unless they
 * chose not to be asked again (a confirm dialog with do-not-show-again,
 * spec 000 §2.4).
 */
export function WebLink({ href, className, children, testId }: { href: string; className?: string; children: ReactNode; testId?: string }) {
  const { t } = useTranslation()
  const userId = useCurrentUser()?.user.id ?? ''
  const personalization = usePersonalization()
  const update = useUpdatePersonalization(userId)
  const [open, setOpen] = useState(false)
  const [dontAsk, setDontAsk] = useState(false)
  const checkId = useId()
  const confirmed = personalization.data?.[DONT_CONFIRM_KEY] === true
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (confirmed || !userId) return
    e.preventDefault()
    setDontAsk(false)
    setOpen(true)
  }
  const go = () => {
    setOpen(false)
    if (dontAsk) update.mutate({ [DONT_CONFIRM_KEY]: true })
    window.open(href, '_blank', 'noopener,noreferrer')
  }
  return (
    <>
      <a href={href} target="_blank" rel="noopener noreferrer nofollow ugc" className={className} data-testid={testId} onClick={onClick}>
        {children}
      </a>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{t('feed.link.confirmTitle')}</DialogTitle>
            <DialogDescription className="break-all">{t('feed.link.confirmBody', { url: href })}</DialogDescription>
          </DialogHeader>
          <div className="flex items-center gap-2 text-sm">
            <input id={checkId} type="checkbox" className="size-4 accent-primary" checked={dontAsk} onChange={(e) => setDontAsk(e.target.checked)} />
            <label htmlFor={checkId}>{t('feed.link.dontAsk')}</label>
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              {t('feed.cancel')}
            </Button>
            <Button type="button" onClick={go}>
              {t('feed.link.open')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  )
}
