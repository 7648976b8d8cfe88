/** Ids of the views and webview panels the extension contributes (package.json uses the same). */
export const CHAT_VIEW_ID = 'zero.chatView';
export const CHAT_PANEL_TYPE = 'zero.chatPanel';
export const TRANSCRIPT_PANEL_TYPE = 'zero.transcriptPanel';
