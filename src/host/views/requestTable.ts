/**
 * The webview protocol's host side as tables: every message type a chat view may send has one
 * handler, and a table missing one does not compile (the shape of vscode-coder's
 * RequestHandlerMap). A view's messages all pass one dispatch.
 */
import type { HostToWebview, WebviewToHost } from '../../shared/protocol';
import type { Transcript } from '../../shared/transcriptSchema';
import type { ToolDetails } from '../../shared/viewTranscript';

export type RequestType = WebviewToHost['type'];
export type RequestOf<K extends RequestType> = Extract<WebviewToHost, { type: K }>;
export type RequestHandler<K extends RequestType, C> = (
	message: RequestOf<K>,
	context: C,
) => unknown;
/** One handler for each message type `K` (all of them by default). */
export type RequestHandlerMap<C, K extends RequestType = RequestType> = {
	readonly [T in K]: RequestHandler<T, C>;
};

/** The messages every chat view sends, whatever it shows (a live chat or a transcript file). */
export const VIEW_REQUESTS = [
	'hello',
	'snapshot/request',
	'tool/details/request',
	'open/link',
	'open/file',
	'open/toolOutput',
	'clipboard/copy',
	'ui/error',
] as const satisfies readonly RequestType[];
export type ViewRequestType = (typeof VIEW_REQUESTS)[number];

/** What a handler may do to the view its message came from. */
export interface ViewConnection {
	/** The view started (again): check its protocol major, then send it a snapshot. */
	hello(protocolMajor: number): void;
	/** Sends the view a fresh snapshot (it lost track of the stream). */
	resendSnapshot(): void;
	/** Answers this view only. */
	reply(message: HostToWebview): void;
}

/** What the view-level handlers read of whatever the view shows. */
export interface ViewRequestContext {
	view: ViewConnection;
	transcript(): Transcript;
	toolDetails(turnId: string, itemId: string): ToolDetails | undefined;
}

/** Runs the table's one handler of `message`'s type. */
export function dispatchRequest<C, K extends RequestType>(
	handlers: RequestHandlerMap<C, K>,
	message: RequestOf<K>,
	context: C,
): Promise<void> {
	const handler = handlers[message.type as K] as unknown as RequestHandler<K, C>;
	return Promise.resolve(handler(message, context)).then(() => undefined);
}

export function isViewRequest(message: WebviewToHost): message is RequestOf<ViewRequestType> {
	return (VIEW_REQUESTS as readonly string[]).includes(message.type);
}
