import type { AcpManager } from '../acp/acpManager';
import type { WaitingApprovals } from '../acp/waitingApprovals';
import type { ChangeService } from '../changes/changeService';
import type { Messages, Prompts } from '../platform/confirmations';
import type { Logger } from '../platform/log';
import type { RunLauncher } from '../platform/runLauncher';
import type { ZeroSettings } from '../platform/settings';
import type { TraceFiles } from '../platform/traceFiles';
import type { ZeroBinaryLocator } from '../platform/zeroBinary';
import type { ZeroCli } from '../platform/zeroCli';
import type { ZeroFacts } from '../platform/zeroFacts';
import type { ChatStore } from '../storage/chatStore';
import type { RunSlots } from './runSlots';
import type { ComposerFactsService } from '../composer/composerMeter';
import type { ProcessGate } from '../spec/processGate';

/** What a chat needs from the rest of the extension (all of it replaceable in unit tests). */
export interface ChatDeps {
	store: ChatStore;
	launcher: Pick<RunLauncher, 'launch'>;
	locator: Pick<ZeroBinaryLocator, 'locate'>;
	zeroCli: ZeroCli;
	/** Follows each run's file changes; reviews and undoes them. */
	changes: ChangeService;
	settings(): ZeroSettings;
	log: Logger;
	workspaceFolder(): string | undefined;
	/** Every folder of the workspace (multi-root: each chat runs in one of them). */
	workspaceFolders?(): string[];
	isTrusted(): boolean;
	/** What zero's sandbox policy and config say, and facts about this machine. */
	facts: ZeroFacts;
	traces: TraceFiles;
	prompts: Prompts;
	messages: Messages;
	now(): number;
	/** The window's shared `zero acp` process (absent: ACP chats cannot run). */
	acp?: AcpManager;
	/** The permission requests zero waits on, for every chat of the window. */
	approvals: WaitingApprovals;
	/** The window's limit on chats running at once (absent: no limit, e.g. in unit tests). */
	runSlots?: RunSlots;
	/** The window's bound on zero processes that watch specialists (absent: one per chat). */
	specialistGate?: ProcessGate;
	/** zero's models and fixed context, for the composer's meter (absent: no meter). */
	composerFacts?: Pick<ComposerFactsService, 'current' | 'refresh' | 'reloadCommands' | 'has'>;
}
