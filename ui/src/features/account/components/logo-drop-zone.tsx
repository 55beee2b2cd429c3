import { useEffect, useRef, useState, type DragEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { ImageUp } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { LOGO_CONTENT_TYPES } from '@/lib/constants'
import { cn } from '@/lib/utils'

/** What the drop zone does when it appears after the logo was removed. */
export type DropZoneEntry = 'focus' | 'choose' | null

/**
 * The placeholder state's upload target: drop a file on it, click it, or use
 * its button (the keyboard path) to open the visually hidden file input.
 * Choosing or dropping no file does nothing.
 */
export function LogoDropZone({ onFile, entry }: { onFile: (file: File) => void; entry: DropZoneEntry }) {
  const { t } = useTranslation('account')
  const inputRef = useRef<HTMLInputElement>(null)
  const buttonRef = useRef<HTMLButtonElement>(null)
  const [dragging, setDragging] = useState(false)

  // After delete, focus lands here instead of on the removed buttons; after
  // change, the file chooser opens too (browsers allow it shortly after a click).
  useEffect(() => {
    if (!entry) return
    buttonRef.current?.focus()
    if (entry === 'choose') inputRef.current?.click()
  }, [entry])

  const choose = () => inputRef.current?.click()
  const take = (files: FileList | null | undefined) => {
    const file = files?.[0]
    if (file) onFile(file)
  }
  const dragOver = (event: DragEvent) => {
    event.preventDefault() // allows the drop
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy'
    setDragging(true)
  }

  return (
    <>
      {/* Clicking anywhere is a mouse convenience; the button is the accessible control. */}
      <div
        data-testid="logo-drop-zone"
        data-dragging={dragging || undefined}
        onClick={choose}
        onDragEnter={dragOver}
        onDragOver={dragOver}
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false)
        }}
        onDrop={(event) => {
          event.preventDefault()
          setDragging(false)
          take(event.dataTransfer?.files)
        }}
        // Hovering changes the border only: a tinted background dimmed the
        // rules' small muted text below 4.5:1 (axe, with the mouse left over it).
        className={cn(
          'flex cursor-pointer flex-col items-center gap-3 rounded-md border-2 border-dashed p-6 text-center text-sm transition-colors',
          dragging ? 'border-primary bg-primary/5' : 'border-input hover:border-primary/60',
        )}
      >
        <ImageUp className="h-8 w-8 text-muted-foreground" aria-hidden="true" />
        {/* Only where dragging exists: a touch screen has the button alone. */}
        <p className="font-medium pointer-coarse:hidden">{t('logo.drop_hint')}</p>
        <Button
          ref={buttonRef}
          type="button"
          variant="outline"
          size="sm"
          onClick={(event) => {
            event.stopPropagation()
            choose()
          }}
        >
          {t('logo.choose')}
        </Button>
        <p className="text-xs text-muted-foreground">{t('logo.rules')}</p>
      </div>
      <input
        ref={inputRef}
        type="file"
        accept={LOGO_CONTENT_TYPES.join(',')}
        aria-label={t('logo.input_label')}
        className="sr-only"
        tabIndex={-1}
        onChange={(event) => {
          take(event.target.files)
          event.target.value = '' // the same file can be chosen again
        }}
      />
    </>
  )
}
