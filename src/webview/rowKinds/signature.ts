/**
 * A row's signature, computed from the values its renderer reads: a row keeps its DOM while the
 * signature is unchanged, so whatever the renderer reads must be among the inputs. Hashing the
 * inputs whole (rather than picking fields) means a field added to a card is covered without a
 * second edit; test/unit/webview/rowSignatures.test.ts checks every kind against its renderer.
 */

/**
 * Strings up to this length are hashed whole: names, states, ids and short texts, which change by
 * being replaced (often by one of the same length). Longer ones are answer and reasoning text,
 * tool arguments and outputs: they only grow while zero streams or are replaced by another text,
 * so their length and three samples (head, middle, tail) tell them apart at a fraction of the cost
 * of reading them whole on every frame.
 */
const HASHED_WHOLE_UP_TO = 256;
const SAMPLE_CHARS = 64;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

class Hasher {
	// Two independent 32-bit hashes: a stale row needs both to collide at once.
	private hash = FNV_OFFSET;
	private second = 5381;
	private count = 0;

	text(value: string): void {
		this.code(value.length);
		if (value.length <= HASHED_WHOLE_UP_TO) {
			this.chars(value, 0, value.length);
			return;
		}
		const middle = (value.length - SAMPLE_CHARS) >> 1;
		this.chars(value, 0, SAMPLE_CHARS);
		this.chars(value, middle, middle + SAMPLE_CHARS);
		this.chars(value, value.length - SAMPLE_CHARS, value.length);
	}

	private chars(value: string, from: number, to: number): void {
		for (let i = from; i < to; i++) {
			this.code(value.charCodeAt(i));
		}
	}

	code(value: number): void {
		this.hash = Math.imul(this.hash ^ (value & 0xffff), FNV_PRIME);
		this.hash = Math.imul(this.hash ^ (value >>> 16), FNV_PRIME);
		this.second = (Math.imul(this.second, 33) ^ value) | 0;
		this.count++;
	}

	value(input: unknown): void {
		switch (typeof input) {
			case 'string':
				this.code(1);
				this.text(input);
				return;
			case 'number':
				this.code(2);
				if ((input | 0) === input) {
					this.code(input);
				} else {
					this.text(String(input));
				}
				return;
			case 'boolean':
				this.code(input ? 3 : 4);
				return;
			case 'undefined':
				this.code(5);
				return;
			case 'object':
				if (input === null) {
					this.code(6);
				} else if (Array.isArray(input)) {
					this.code(7);
					this.code(input.length);
					for (const entry of input) {
						this.value(entry);
					}
				} else {
					this.code(8);
					// for...in rather than Object.entries: no array per object on every frame (the transcript
					// holds plain objects, parsed from JSON, with no inherited fields).
					for (const key in input) {
						const entry = (input as Record<string, unknown>)[key];
						if (entry !== undefined) {
							this.text(key);
							this.value(entry);
						}
					}
					// The end of an object, so that {a: {b}, c} and {a: {b, c}} differ.
					this.code(10);
				}
				return;
			default:
				this.code(9);
		}
	}

	digest(): string {
		return `${(this.hash >>> 0).toString(36)}.${(this.second >>> 0).toString(36)}.${this.count.toString(36)}`;
	}
}

/** The signature of a row's inputs (plain data: strings, numbers, flags, arrays, objects). */
export function signatureOf(inputs: readonly unknown[]): string {
	const hasher = new Hasher();
	hasher.value(inputs);
	return hasher.digest();
}
