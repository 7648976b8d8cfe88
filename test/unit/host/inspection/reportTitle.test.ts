import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	readableTime,
	reportStamp,
	reportTitle,
	savedReportTitle,
} from '../../../../src/host/inspection/reportTitle';

const NOW = new Date(2026, 11, 2, 9, 0).getTime();
const AT = new Date(2026, 11, 1, 20, 45, 27, 829).getTime();

describe('report titles', () => {
	it('name the preset and a readable local time', () => {
		assert.equal(readableTime(AT, NOW), '1 Dec 20:45');
		assert.equal(reportTitle('Find bugs', AT, NOW), 'Find bugs \u00b7 1 Dec 20:45');
		assert.equal(
			readableTime(new Date(2025, 0, 5, 7, 3).getTime(), NOW),
			'5 Jan 2025 07:03',
			'another year is named',
		);
	});

	it('keep a hostile label on one short line', () => {
		const title = reportTitle(`Bugs\n\u0007${'x'.repeat(200)}`, AT, NOW);
		assert.ok(!/[\n\u0007]/.test(title));
		assert.ok(title.length < 100, title);
	});

	it('of a saved report: its heading, or for an older report the preset and the file stamp', () => {
		const file = `${new Date(AT).toISOString().replace(/[:.]/g, '-')}-find-bugs.md`;
		assert.equal(reportStamp(file), AT);
		assert.equal(
			savedReportTitle(file, '# Find bugs \u00b7 1 Dec 20:45\n\n## Findings\n', 0, NOW),
			'Find bugs \u00b7 1 Dec 20:45',
		);
		assert.equal(
			savedReportTitle(file, '# Zero inspection: Find bugs\n\n- Folder: `/ws`\n', 0, NOW),
			'Find bugs \u00b7 1 Dec 20:45',
		);
		assert.equal(
			savedReportTitle('notes.md', 'no heading', AT, NOW),
			'Inspection report \u00b7 1 Dec 20:45',
		);
	});
});
