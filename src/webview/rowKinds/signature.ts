/**
 * A row's signature, computed from the values its renderer reads: a row keeps its DOM while the
 * signature is unchanged, so whatever the renderer reads must be among the inputs. Hashing the
 * inputs whole (rather than picking fields) means a field added to a card is covered without a
 * second edit; test/unit/webview/rowSignatures.test.ts checks every kind against its renderer.
 */

/** Strings longer than this are answer or reasoning text, which only grows while zero streams. */
const HASHED_WHOLE_UP_TO = 4096;
const TAIL_CHARS = 64;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

class Hasher {
	// Two independent 32-bit hashes: a stale row needs both to collide at once.
	private hash = FNV_OFFSET;
	private second = 5381;
	private count = 0;

	text(value: string): void {
		const hashed =
			value.length > HASHED_WHOLE_UP_TO ? value.slice(value.length - TAIL_CHARS) : value;
		this.code(value.length);
		for (let i = 0; i < hashed.length; i++) {
			this.code(hashed.charCodeAt(i));
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
				this.text(String(input));
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
					for (const [key, entry] of Object.entries(input)) {
						if (entry !== undefined) {
							this.text(key);
							this.value(entry);
						}
					}
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
