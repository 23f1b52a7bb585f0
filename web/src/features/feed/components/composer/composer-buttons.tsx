import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { MessageCircleQuestion, SquarePen } from 'lucide-react'
import type { Schemas } from '@/api/client'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/utils'
import { useFeedExtensions } from '../../lib/extensions'
import type { Thread } from '../../lib/thread-cache'
import { Composer } from './composer'

export interface ComposerButtonsProps {
  series: Schemas['Forum']
  channelId: string
  /** 'row' above the feed on wide screens, 'column' in the left track on narrow ones (spec 001 §2). */
  layout?: 'row' | 'column'
  onPosted?: (thread: Thread) => void
  className?: string
}

/**
 * ComposerButtons are the buttons above the feed (spec 001 §2): write a post
 * and ask a question, each opening the composer dialog; and what the app
 * adds to them (the Meet Ups feature's Schedule Meet Up button).
 */
export function ComposerButtons({ series, channelId, layout = 'row', onPosted, className }: ComposerButtonsProps) {
  const { t } = useTranslation()
  const [kind, setKind] = useState<'post' | 'question'>('post')
  const [open, setOpen] = useState(false)
  const extra = useFeedExtensions().composerButtons
  const show = (k: 'post' | 'question') => {
    setKind(k)
    setOpen(true)
  }
  return (
    <div
      role="group"
      aria-label={t('composer.actions')}
      className={cn('flex gap-2', layout === 'column' ? 'flex-col' : 'flex-wrap', className)}
    >
      <Button type="button" onClick={() => show('post')} className={cn(layout === 'column' && 'justify-start')}>
        <SquarePen aria-hidden />
        {t('composer.post')}
      </Button>
      <Button type="button" variant="outline" onClick={() => show('question')} className={cn(layout === 'column' && 'justify-start')}>
        <MessageCircleQuestion aria-hidden />
        {t('composer.ask')}
      </Button>
      {extra?.(series, layout)}
      <Composer series={series} channelId={channelId} kind={kind} variant="dialog" open={open} onOpenChange={setOpen} onPosted={onPosted} />
    </div>
  )
}
