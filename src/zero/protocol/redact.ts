/**
 * Masks secrets in text that leaves zero's process (its stderr): the values of the user's
 * `zero.env` and anything shaped like an API key or token. Applied where stderr enters the
 * extension, so the log, saved chats and notices only ever see the masked text.
 */

export const REDACTED = '***';

/** zero.env values shorter than this are not masked (a "1" or "on" would mask half the text). */
const MIN_SECRET_LENGTH = 4;

const KEY_PATTERNS: RegExp[] = [
	// Provider keys and tokens with a known prefix.
	/\bsk-(?:proj-|ant-(?:api\d+-)?)?[A-Za-z0-9_-]{16,}/g,
	/\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/g,
	/\bgithub_pat_[A-Za-z0-9_]{20,}/g,
	/\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
	/\bAKIA[0-9A-Z]{16}\b/g,
	/\bAIza[0-9A-Za-z_-]{30,}/g,
	/\bglpat-[A-Za-z0-9_-]{20,}/g,
	// JSON web tokens.
	/\beyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g,
];

/** `Bearer <token>`, `api_key=<value>`, `"token": "<value>"`: the value after a secret-like name. */
const NAMED_SECRET =
	/(\bBearer\s+|\b[A-Za-z_]*(?:api[_-]?key|apikey|secret|token|password|passwd|credential)s?["']?\s*[:=]\s*["']?)([^\s"',;}]{4,})/gi;

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function redactSecrets(text: string, secrets: readonly string[]): string {
	let result = text;
	const values = [...new Set(secrets)]
		.filter((value) => value.length >= MIN_SECRET_LENGTH)
		.sort((a, b) => b.length - a.length);
	if (values.length > 0) {
		result = result.replace(new RegExp(values.map(escapeRegExp).join('|'), 'g'), REDACTED);
	}
	for (const pattern of KEY_PATTERNS) {
		result = result.replace(pattern, REDACTED);
	}
	return result.replace(NAMED_SECRET, (_match, name: string, value: string) =>
		value === REDACTED ? `${name}${value}` : `${name}${REDACTED}`,
	);
}
