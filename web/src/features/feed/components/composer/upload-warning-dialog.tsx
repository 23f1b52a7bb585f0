import { useTranslation } from 'react-i18next'
import * as DialogPrimitive from '@radix-ui/react-dialog'
import { TriangleAlert } from 'lucide-react'
import { Button } from '@/components/ui/button'

/**
 * UploadWarningDialog tells why an upload was rejected (spec 001 §8): a
 * title, a description and one confirm button, with no cancel (and so no
 * close cross either: the shared DialogContent always draws one). It is an
 * alertdialog: Escape acknowledges it as the button does, a click outside
 * does nothing.
 */
export function UploadWarningDialog({ warning, onConfirm }: { warning: string | null; onConfirm: () => void }) {
  const { t } = useTranslation()
  return (
    <DialogPrimitive.Root open={!!warning} onOpenChange={(o) => !o && onConfirm()}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50" />
        <DialogPrimitive.Content
          role="alertdialog"
          onPointerDownOutside={(e) => e.preventDefault()}
          className="fixed left-1/2 top-1/2 z-50 grid w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-4 rounded-lg border bg-background p-6 shadow-lg"
        >
          <div className="flex gap-3">
            <TriangleAlert aria-hidden className="mt-0.5 size-5 shrink-0 text-destructive" />
            <div className="grid gap-1.5">
              <DialogPrimitive.Title className="text-lg font-semibold">{t('composer.upload.rejectedTitle')}</DialogPrimitive.Title>
              <DialogPrimitive.Description className="text-sm text-muted-foreground">{warning}</DialogPrimitive.Description>
            </div>
          </div>
          <div className="flex justify-end">
            <Button type="button" onClick={onConfirm} autoFocus>
              {t('composer.upload.confirm')}
            </Button>
          </div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  )
}
