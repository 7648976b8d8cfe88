import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	buildUserMessage,
	InputError,
	MAX_IMAGE_BYTES,
	validateImage,
} from '../../../src/zero/protocol/streamInput';

describe('stream-json input', () => {
	it('builds exactly the fields zero accepts', () => {
		assert.equal(
			buildUserMessage('hi'),
			'{"schemaVersion":2,"type":"message","role":"user","content":"hi"}\n',
		);
		const withImage = JSON.parse(
			buildUserMessage('', [{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }]),
		);
		assert.deepEqual(Object.keys(withImage), [
			'schemaVersion',
			'type',
			'role',
			'content',
			'images',
		]);
		assert.deepEqual(withImage.images, [{ mediaType: 'image/png', data: 'iVBORw0KGgo=' }]);
	});

	it('keeps newlines and quotes inside one JSONL line', () => {
		const line = buildUserMessage('a\n"b"\n');
		assert.equal(line.split('\n').length, 2);
		assert.equal(JSON.parse(line).content, 'a\n"b"\n');
	});

	it('refuses an empty message', () => {
		assert.throws(() => buildUserMessage('  '), InputError);
	});

	it('validates images: type, base64 and the 10 MiB cap', () => {
		assert.deepEqual(validateImage({ mediaType: 'image/webp', data: 'AAAA' }), {
			mediaType: 'image/webp',
			data: 'AAAA',
		});
		assert.throws(
			() => validateImage({ mediaType: 'image/bmp', data: 'AAAA' }, 'pic.bmp'),
			/pic.bmp: image\/bmp is not supported/,
		);
		assert.throws(
			() => validateImage({ mediaType: 'image/png', data: 'not base64!' }),
			/not valid base64/,
		);
		const big = 'A'.repeat(Math.ceil((MAX_IMAGE_BYTES + 3) / 3) * 4);
		assert.throws(
			() => validateImage({ mediaType: 'image/png', data: big }),
			/over zero's 10 MiB image limit/,
		);
	});
});
