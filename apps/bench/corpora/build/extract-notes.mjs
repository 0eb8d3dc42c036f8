// Re-extracts the Debian package descriptions for the notes corpus (run once; needs apt-cache).
// Input: /work/wt/notes.jsonl (package list). Output: notes-source.json (committed).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { readStanza } from './lib.mjs';

const list = readFileSync(process.argv[2] ?? '/work/wt/notes.jsonl', 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const out = [];
for (const { pkg } of list) {
  const show = execFileSync(
    'apt-cache',
    ['-o', 'Acquire::Languages=en', 'show', '--no-all-versions', pkg],
    { encoding: 'utf8' },
  );
  out.push({ ...readStanza(show), pkg });
}
writeFileSync(new URL('./notes-source.json', import.meta.url), JSON.stringify(out, null, 1) + '\n');
console.log(out.length, 'packages;', out.filter((p) => !p.body).length, 'without body');
