// The post composer (spec 001 §2 "Feed surfaces", §4 "Composer", §5): the
// Composer itself, the buttons above the feed that open it, and the message
// editor that comments use too.
export { Composer, type ComposerProps } from './composer'
export { canSubmit, emptyContent, type ComposerContent } from './use-composer'
export { ComposerButtons, type ComposerButtonsProps } from './composer-buttons'
export { MessageEditor, type MessageEditorProps } from './message-editor'
export { LinkDialog } from './link-dialog'
export { LinkPreviewCard } from './link-preview-card'
export { EDITOR_DEFAULT_MAX, MAX_POST_TEXT } from './text'
