// The post composer (spec 001 §2 "Feed surfaces", §4 "Composer", §5): the
// Composer itself and the buttons above the feed that open it. Its text box
// is the shared MessageEditor (@/components/message-editor).
export { Composer, type ComposerProps } from './composer'
export { canSubmit, emptyContent, type ComposerContent } from './use-composer'
export { ComposerButtons, type ComposerButtonsProps } from './composer-buttons'
export { LinkDialog } from './link-dialog'
export { LinkPreviewCard } from './link-preview-card'
export { MAX_POST_TEXT } from './text'
