// The naive baseline for `npm run bench:webview`: the obvious way to write the chat view.
// Browser script (no build step), served by test/harness/webviewPage.ts with `naive: true` after
// /bench/transcript.js (src/shared/transcript.ts bundled as window.ZeroTranscript), under the same
// CSP as the real webview.
//
// It speaks the same protocol (hello → hello/ack, state/snapshot, transcript/actions) and keeps the
// transcript with the same reducer, but on every received frame it rebuilds the DOM of ALL rows from
// scratch and scrolls to the bottom: no virtualization, no batching beyond one render per frame
// received, no reuse of unchanged rows.
//
// It is deliberately cheap per row so the comparison is conservative: model text is shown as plain
// paragraphs (no markdown, no highlighting, no sanitizer), frames are not validated with zod, and
// tool cards have no permission explanations. Tool arguments and output go into a closed <details>
// (in the DOM, not laid out), as a straightforward implementation would do.
(() => {
	'use strict';
	const { applyAction } = window.ZeroTranscript;
	const vscode = acquireVsCodeApi();
	const app = document.getElementById('app');
	let transcript;

	function el(tag, className, ...children) {
		const element = document.createElement(tag);
		if (className) {
			element.className = className;
		}
		for (const child of children) {
			if (child === undefined || child === null || child === false) {
				continue;
			}
			element.append(typeof child === 'string' ? document.createTextNode(child) : child);
		}
		return element;
	}

	function codicon(name) {
		const element = el('span', `codicon codicon-${name}`);
		element.setAttribute('aria-hidden', 'true');
		return element;
	}

	function tokens(value) {
		return value >= 10000 ? `${(value / 1000).toFixed(1)}k` : String(value);
	}

	const header = el('header', 'chat-header');
	const list = el('div', 'transcript');
	list.setAttribute('role', 'log');
	list.tabIndex = 0;
	const textarea = el('textarea', 'composer-input');
	textarea.rows = 3;
	textarea.placeholder = 'Ask zero\u2026';
	const send = el('button', 'button primary send', codicon('send'), ' Send');
	send.type = 'button';
	const footer = el(
		'footer',
		'chat-footer',
		el('div', 'composer', textarea, el('div', 'composer-bar', el('span', 'spacer'), send)),
	);

	function renderHeader() {
		const usage = transcript.usage;
		header.replaceChildren(
			el('div', 'chat-title', transcript.title),
			el(
				'div',
				'chat-meta muted',
				transcript.model ? el('span', '', codicon('sparkle'), ` ${transcript.model}`) : undefined,
				usage.requests > 0
					? el('span', '', codicon('dashboard'), ` ${tokens(usage.totalTokens)} tokens this chat`)
					: undefined,
			),
		);
	}

	function itemRow(turn, item, className, kind) {
		const row = el('div', `row ${className}`);
		row.dataset.kind = kind;
		row.dataset.turn = turn.id;
		row.dataset.item = item.id;
		return row;
	}

	function toolSummary(args) {
		if (!args || typeof args !== 'object') {
			return typeof args === 'string' ? args.slice(0, 120) : '';
		}
		return String(args.path ?? args.command ?? args.pattern ?? args.url ?? '');
	}

	function renderTool(turn, item) {
		const state = item.result
			? item.result.status === 'ok'
				? 'ok'
				: 'error'
			: turn.run.phase === 'ended'
				? 'unfinished'
				: 'running';
		const row = itemRow(turn, item, `tool-card state-${state}`, 'tool');
		row.dataset.tool = item.name;
		row.dataset.status = state;
		row.append(
			el(
				'div',
				'tool-header',
				codicon(
					item.sideEffect === 'write' ? 'edit' : item.sideEffect === 'shell' ? 'terminal' : 'eye',
				),
				el('span', 'tool-name', item.name),
				el('span', 'tool-summary', toolSummary(item.args)),
				el(
					'span',
					`badge side-effect side-${item.sideEffect ?? 'unknown'}`,
					item.sideEffect ?? 'unknown',
				),
				el(
					'span',
					`tool-state state-${state}`,
					codicon(state === 'ok' ? 'pass' : state === 'running' ? 'loading' : 'error'),
					` ${state}`,
				),
			),
		);
		if (item.permission) {
			row.append(
				el(
					'div',
					'permission-notice quiet',
					codicon('shield'),
					` ${item.permission.action}: ${item.permission.reason ?? item.permission.permissionMode ?? ''}`,
				),
			);
		}
		if (item.result && item.result.changedFiles.length > 0) {
			row.append(
				el(
					'div',
					'changed-files',
					codicon('diff'),
					' Changed: ',
					...item.result.changedFiles.map((file) => el('a', 'file-link', file)),
				),
			);
		}
		const args = item.args === undefined ? '' : JSON.stringify(item.args, null, 2);
		row.append(
			el(
				'details',
				'tool-details',
				el('summary', '', 'Details'),
				el('div', 'section-label', 'Arguments'),
				el('pre', 'tool-args', args),
				item.result ? el('div', 'section-label', 'Output') : undefined,
				item.result ? el('pre', 'tool-output', item.result.output) : undefined,
			),
		);
		return row;
	}

	function renderItem(turn, item) {
		switch (item.kind) {
			case 'text': {
				const body = el('div', 'markdown');
				for (const paragraph of item.text.split(/\n{2,}/)) {
					if (paragraph.trim() !== '') {
						body.append(el('p', '', paragraph));
					}
				}
				const row = itemRow(turn, item, 'text-row', 'text');
				row.append(body);
				return row;
			}
			case 'reasoning': {
				const row = itemRow(turn, item, 'reasoning-row', 'reasoning');
				row.append(
					el(
						'details',
						'',
						el(
							'summary',
							'reasoning-toggle',
							codicon('lightbulb'),
							` Reasoning (${item.text.length} chars)`,
						),
						el('div', 'reasoning-text', item.text),
					),
				);
				return row;
			}
			case 'tool':
				return renderTool(turn, item);
			case 'warning':
			case 'notice':
				return el(
					'div',
					`row notice-row ${item.kind}`,
					codicon(item.kind === 'warning' ? 'warning' : 'info'),
					el('span', '', item.message),
				);
			case 'error':
				return el('div', 'row notice-row error', codicon('error'), el('span', '', item.message));
			default:
				return el('div', 'row diagnostic-row', el('pre', 'excerpt', item.excerpt ?? ''));
		}
	}

	function renderStatus(turn) {
		const run = turn.run;
		const row = el('div', `row status-row ${run.phase === 'ended' ? 'ended' : 'running'}`);
		row.dataset.kind = 'status';
		row.dataset.phase = run.phase;
		const title =
			run.phase !== 'ended'
				? ' zero is working\u2026'
				: run.end?.kind === 'run_end' && run.end.status === 'success'
					? ' Finished'
					: ` Ended (${run.end?.kind ?? 'unknown'})`;
		row.append(codicon(run.phase === 'ended' ? 'check' : 'loading'), title);
		if (run.usage.requests > 0) {
			row.append(el('span', 'muted', ` \u00b7 ${tokens(run.usage.totalTokens)} tokens`));
		}
		return row;
	}

	/** Rebuilds every row from the transcript, then follows the bottom. */
	function render() {
		renderHeader();
		const rows = [];
		for (const turn of transcript.turns) {
			if (turn.prompt) {
				const prompt = el('div', 'row prompt-row', el('div', 'prompt-text', turn.prompt.text));
				prompt.dataset.kind = 'prompt';
				rows.push(prompt);
			}
			for (const item of turn.run.items) {
				rows.push(renderItem(turn, item));
			}
			rows.push(renderStatus(turn));
		}
		list.replaceChildren(...rows);
		list.scrollTop = list.scrollHeight;
	}

	window.addEventListener('message', (event) => {
		const message = event.data;
		if (!message || typeof message !== 'object') {
			return;
		}
		try {
			switch (message.type) {
				case 'state/snapshot':
					transcript = message.transcript;
					if (app.dataset.state !== 'ready') {
						app.replaceChildren(header, list, footer);
						app.dataset.state = 'ready';
					}
					render();
					return;
				case 'transcript/actions':
					if (transcript) {
						for (const action of message.actions) {
							applyAction(transcript, action);
						}
						render();
					}
					return;
			}
		} catch (error) {
			vscode.postMessage({
				type: 'ui/error',
				message: `naive renderer: ${error && error.message}`,
			});
		}
	});

	vscode.postMessage({ type: 'hello', protocolMajor: ZeroTranscript.WEBVIEW_PROTOCOL_MAJOR });
})();
