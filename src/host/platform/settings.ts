import { z } from 'zod';
import {
	CHAT_PERMISSION_MODES,
	DEFAULT_CHAT_PERMISSION_MODE,
	type ChatPermissionMode,
} from '../../zero/protocol/permissionModes';

/** An inspection preset: a label in the picker and the prompt zero receives. */
export interface InspectionPreset {
	label: string;
	prompt: string;
	detail?: string;
}

/** Typed, validated view of the `zero.*` settings. */
export interface ZeroSettings {
	path: string;
	model: string;
	permissionMode: ChatPermissionMode;
	maxTurns: number | undefined;
	/** Chats that may run zero at the same time in this window. */
	maxConcurrentRuns: number;
	extraArgs: string[];
	env: Record<string, string>;
	sendWithEnter: boolean;
	inspectionPresets: InspectionPreset[];
	/** Keep a baseline of the folder before each turn for what zero keeps no checkpoint of. */
	shellBaselineEnabled: boolean;
	/** The baseline store's bound per folder, in MiB (emptied and started again beyond it). */
	shellBaselineMaxStoreMegabytes: number;
}

/** The part of `vscode.WorkspaceConfiguration` the reader needs (keeps it testable). */
export interface SettingsSource {
	inspect<T>(
		key: string,
	):
		{ defaultValue?: T; globalValue?: T; workspaceValue?: T; workspaceFolderValue?: T } | undefined;
}

export interface SettingProblem {
	setting: string;
	message: string;
}

interface SettingSpec<T> {
	schema: z.ZodType<T>;
	fallback: T;
	/** Machine-scoped settings are read from user settings only, never from a workspace. */
	userOnly?: boolean;
	hint: string;
}

const SPECS = {
	path: { schema: z.string(), fallback: '', userOnly: true, hint: 'a path to the zero binary' },
	model: { schema: z.string(), fallback: '', hint: 'a model id' },
	permissionMode: {
		schema: z.enum(CHAT_PERMISSION_MODES),
		fallback: DEFAULT_CHAT_PERMISSION_MODE,
		hint: `one of ${CHAT_PERMISSION_MODES.join(', ')}`,
	},
	maxTurns: {
		schema: z.number().int().min(1).max(500).nullable().optional(),
		fallback: null,
		hint: 'a whole number from 1 to 500, or empty',
	},
	maxConcurrentRuns: {
		schema: z.number().int().min(1).max(32),
		fallback: 4,
		hint: 'a whole number from 1 to 32',
	},
	extraArgs: {
		schema: z.array(z.string()),
		fallback: [],
		userOnly: true,
		hint: 'a list of strings',
	},
	env: {
		schema: z.record(z.string(), z.string()),
		fallback: {},
		userOnly: true,
		hint: 'an object whose values are strings',
	},
	sendWithEnter: { schema: z.boolean(), fallback: true, hint: 'true or false' },
	'shellBaseline.enabled': { schema: z.boolean(), fallback: true, hint: 'true or false' },
	'shellBaseline.maxStoreMegabytes': {
		schema: z.number().int().min(16).max(1_000_000),
		fallback: 2048,
		hint: 'a whole number from 16 to 1000000',
	},
	'inspection.presets': {
		schema: z.array(
			z.object({
				label: z.string().min(1),
				prompt: z.string().min(1),
				detail: z.string().optional(),
			}),
		),
		fallback: [],
		hint: 'a list of { "label", "prompt" } objects',
	},
} satisfies Record<string, SettingSpec<unknown>>;

type SpecKey = keyof typeof SPECS;

/** Every `zero.*` key the reader knows, without the `zero.` prefix. */
export const SETTING_KEYS = Object.keys(SPECS) as SpecKey[];
type SpecValue<K extends SpecKey> = z.infer<(typeof SPECS)[K]['schema']>;

function readOne<K extends SpecKey>(
	source: SettingsSource,
	key: K,
	problems: SettingProblem[],
): SpecValue<K> {
	const spec: SettingSpec<unknown> = SPECS[key];
	const inspected = source.inspect<unknown>(key);
	const raw = spec.userOnly
		? inspected?.globalValue
		: (inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? inspected?.globalValue);
	if (raw === undefined) {
		return spec.fallback as SpecValue<K>;
	}
	const parsed = spec.schema.safeParse(raw);
	if (!parsed.success) {
		problems.push({
			setting: `zero.${key}`,
			message: `"zero.${key}" must be ${spec.hint}; using the default instead.`,
		});
		return spec.fallback as SpecValue<K>;
	}
	return parsed.data as SpecValue<K>;
}

/** Reads every `zero.*` setting; invalid values fall back to the default and are listed in `problems`. */
export function readSettings(source: SettingsSource): {
	settings: ZeroSettings;
	problems: SettingProblem[];
} {
	const problems: SettingProblem[] = [];
	const settings: ZeroSettings = {
		path: readOne(source, 'path', problems).trim(),
		model: readOne(source, 'model', problems).trim(),
		permissionMode: readOne(source, 'permissionMode', problems),
		maxTurns: readOne(source, 'maxTurns', problems) ?? undefined,
		maxConcurrentRuns: readOne(source, 'maxConcurrentRuns', problems),
		extraArgs: readOne(source, 'extraArgs', problems),
		env: readOne(source, 'env', problems),
		sendWithEnter: readOne(source, 'sendWithEnter', problems),
		inspectionPresets: readOne(source, 'inspection.presets', problems),
		shellBaselineEnabled: readOne(source, 'shellBaseline.enabled', problems),
		shellBaselineMaxStoreMegabytes: readOne(source, 'shellBaseline.maxStoreMegabytes', problems),
	};
	return { settings, problems };
}
