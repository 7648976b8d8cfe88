/** Every command the extension contributes; a unit test keeps this equal to package.json. */
export const COMMAND_IDS = [
	'zero.openChat',
	'zero.openChatInEditor',
	'zero.newChat',
	'zero.stopRun',
	'zero.showChats',
	'zero.deleteChat',
	'zero.selectModel',
	'zero.setPermissionMode',
	'zero.showLog',
	'zero.showProtocolTrace',
	'zero.exportRun',
	'zero.openRunTranscript',
	'zero.askAboutSelection',
	'zero.explainFile',
	'zero.fixProblems',
	'zero.addFileToChat',
	'zero.inspectWorkspace',
	'zero.showReports',
	'zero.checkSetup',
	'zero.locateBinary',
	'zero.openWalkthrough',
	'zero.manageGrants',
	'zero.connectProvider',
	'zero.askToFixFinding',
] as const;

export type CommandId = (typeof COMMAND_IDS)[number];
