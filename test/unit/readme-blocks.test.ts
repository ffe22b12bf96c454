import { describe, expect, it } from 'vitest';
import { readmeBlocks, statusMismatch } from '../readme/readme-blocks.js';

const fence = '```';
const markdown = [
  '# Title',
  `${fence}sh`,
  'npm install',
  fence,
  '## Sending',
  `${fence}sh`,
  'curl -s $BASE/v1/contacts',
  '# 201 {"id":"…"}',
  'curl -s -X DELETE $BASE/v1/webhooks/$W   # 204; again: 404',
  fence,
  '- a list item:',
  '',
  `  ${fence}sh not-run`,
  '  curl -s $BASE/v1/envelopes/<id>/signing-links',
  `  ${fence}`,
  `${fence}json`,
  '{ "curl": 1 }',
  fence,
  `${fence}sh`,
  'npm run admin -- help   # prints 200 lines',
  fence,
].join('\n');

describe('readmeBlocks', () => {
  it('finds the sh blocks, runs only those that call the service and are not fenced not-run, with their documented statuses', () => {
    expect(readmeBlocks(markdown).map(({ line, heading, runs, why, statuses }) => ({ line, heading, runs, why, statuses }))).toEqual([
      { line: 2, heading: 'Title', runs: false, why: 'calls no service', statuses: [] },
      { line: 6, heading: 'Sending', runs: true, why: undefined, statuses: [201, 204] },
      { line: 13, heading: 'Sending', runs: false, why: 'fenced as not-run', statuses: [] },
      { line: 19, heading: 'Sending', runs: true, why: undefined, statuses: [] },
    ]);
    expect(readmeBlocks(markdown)[2]?.code).toBe('curl -s $BASE/v1/envelopes/<id>/signing-links');
  });
});

describe('statusMismatch', () => {
  it('holds when the documented statuses come in order and every other answer is 2xx', () => {
    expect(statusMismatch([422, 404], [200, 422, 201, 404])).toBeUndefined();
    expect(statusMismatch([402, 429], [201, 201, 402, 402, 402, 429])).toBeUndefined();
  });

  it('names a documented status that did not come, or came out of order', () => {
    expect(statusMismatch([201], [200, 200])).toContain('201 missing');
    expect(statusMismatch([404, 422], [422, 404])).toContain('missing');
  });

  it('names an answer that is neither 2xx nor documented', () => {
    expect(statusMismatch([201], [201, 401])).toContain('undocumented answers 401');
    expect(statusMismatch([], [500])).toContain('undocumented answers 500');
  });
});
