/** zero's stderr-only notices, as recorded from the real zero v0.8.0 (p11-*.stderr.txt). */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { stderrNotices } from '../../../src/zero/protocol/stderrNotices';
import { RECORDED } from '../helpers';

describe("zero's stderr-only notices", () => {
	it('a deprecated model replaced, and project hooks ignored in an untrusted workspace', () => {
		const stderr = readFileSync(
			path.join(RECORDED, 'p11a-deprecated-model-untrusted-hooks.stderr.txt'),
			'utf8',
		);
		assert.deepEqual(
			stderrNotices(stderr).map((notice) => notice.kind),
			['model_replaced', 'project_config_ignored'],
		);
		assert.equal(
			readFileSync(path.join(RECORDED, 'p11a-deprecated-model-untrusted-hooks.jsonl'), 'utf8')
				.split('\n')
				.some((line) => /deprecated|untrusted/.test(line)),
			false,
			'stdout says nothing about either',
		);
	});

	it('images dropped for a model without vision', () => {
		const stderr = readFileSync(path.join(RECORDED, 'p11b-image-dropped.stderr.txt'), 'utf8');
		assert.deepEqual(stderrNotices(stderr)[0], {
			kind: 'images_dropped',
			message: 'Model fake-model does not support image input; ignoring 1 image(s).',
		});
		assert.deepEqual(stderrNotices('[zero] something else\n'), []);
	});
});
