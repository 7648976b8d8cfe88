/** How a request of ours to zero can fail (thrown by the JsonRpcConnection of jsonRpc.ts). */

/** zero answered a request with a JSON-RPC error. */
export class AcpRequestError extends Error {
	constructor(
		readonly method: string,
		readonly code: number,
		readonly rpcMessage: string,
		readonly data?: unknown,
	) {
		super(`zero refused ${method}: ${rpcMessage} (JSON-RPC error ${code})`);
		this.name = 'AcpRequestError';
	}
}

/** The connection closed (the process exited, or the client shut it) before zero answered. */
export class AcpConnectionClosedError extends Error {
	constructor(
		readonly method: string,
		readonly reason: string,
	) {
		super(`zero did not answer ${method}: ${reason}`);
		this.name = 'AcpConnectionClosedError';
	}
}

/** zero's answer did not have the shape this client expects. */
export class AcpInvalidResultError extends Error {
	constructor(
		readonly method: string,
		readonly issues: string,
		readonly excerpt: string,
	) {
		super(`zero's answer to ${method} was not understood: ${issues}`);
		this.name = 'AcpInvalidResultError';
	}
}

export class AcpTimeoutError extends Error {
	constructor(
		readonly method: string,
		readonly timeoutMs: number,
	) {
		super(`zero did not answer ${method} within ${timeoutMs} ms`);
		this.name = 'AcpTimeoutError';
	}
}

/** zero's answer to a request of ours was longer than the line cap and was skipped. */
export class AcpLineTooLongError extends Error {
	constructor(
		readonly method: string,
		readonly bytes: number,
	) {
		super(`zero's answer to ${method} (${bytes} bytes) was over the line limit and was skipped`);
		this.name = 'AcpLineTooLongError';
	}
}
