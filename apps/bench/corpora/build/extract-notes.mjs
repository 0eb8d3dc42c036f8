// Re-extracts the Debian package descriptions for the notes corpus (run once; needs apt-cache).
// Input: /work/wt/notes.jsonl (package list). Output: notes-source.json (committed).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

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
  const lines = show.split('\n');
  const field = (name) =>
    (lines.find((l) => l.startsWith(`${name}: `)) ?? '').slice(name.length + 2);
  // The long description is in the Translation-en index (Description-en); needs
  // `apt-get update -o Acquire::Languages=en` where the image turned languages off.
  let at = lines.findIndex((l) => l.startsWith('Description-en: '));
  if (at < 0) at = lines.findIndex((l) => l.startsWith('Description: '));
  const title = lines[at].replace(/^Description(-en)?: /, '').trim();
  const body = [];
  for (const l of lines.slice(at + 1)) {
    if (!l.startsWith(' ')) break;
    body.push(l.trim() === '.' ? '' : l.slice(1));
  }
  out.push({
    pkg,
    version: field('Version'),
    section: field('Section'),
    size: Number(field('Size')),
    title,
    body: body.join('\n').trim(),
  });
}
writeFileSync(new URL('./notes-source.json', import.meta.url), JSON.stringify(out, null, 1) + '\n');
console.log(out.length, 'packages;', out.filter((p) => !p.body).length, 'without body');
