/**
 * The relations each memory states (schema 14, `relation_mentions`): kept by triggers as memories
 * are written, edited and forgotten, filled for the memories of a store that had none when it is
 * upgraded, and what a write's supersession check reads (issue 69: a lookup of each relation's
 * most recent memories, not a scan of every vector). A fact stated long ago, behind hundreds of
 * newer memories of other relations, is still superseded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { relationsOf } from '@anamnesis/ranking';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.ts';
import { defaultEmbedder, onDisk } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'anamnesis-relations-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The store's relation rows, as `relation:id` strings, sorted. */
function mentions(path: string): string[] {
  const db = onDisk(path, { readonly: true });
  try {
    return (
      db.selectArrays(
        'SELECT r.relation, m.id FROM relation_mentions r JOIN memories m USING (rid)',
      ) as [string, string][]
    )
      .map(([relation, id]) => `${relation}:${id}`)
      .sort();
  } finally {
    db.close();
  }
}

const DAY = 86_400_000;

describe('relation_mentions', () => {
  it('follows writes, edits and forgets; a store upgraded from schema 13 is filled', async () => {
    const path = join(dir, 'kept.db');
    const embedder = await defaultEmbedder();
    const a = await createEngine({ storage: 'file', path, embedder });
    await a.rememberMany([
      { id: 'home', text: 'I live in Porto, near the river' },
      { id: 'both', text: 'My dentist is Dr Silva, two streets from my flat' },
      { id: 'none', text: 'Bought basil and two lemons' },
    ]);
    await a.remember({ id: 'work', text: 'Started working at the harbour office' });
    await a.close();
    // each memory's relations as the ranking package reads them
    expect(relationsOf('My dentist is Dr Silva, two streets from my flat')).toEqual([
      'dentist',
      'home',
    ]);
    expect(mentions(path)).toEqual(['dentist:both', 'home:both', 'home:home', 'work:work']);

    const b = await createEngine({ storage: 'file', path, embedder });
    await b.update('none', { text: 'My new phone number ends in 4471' });
    await b.forget(['home']);
    await b.close();
    expect(mentions(path)).toEqual(['dentist:both', 'home:both', 'phone:none', 'work:work']);

    // what schema 13 left: no index, no triggers
    const db = onDisk(path);
    db.exec(`DROP TRIGGER memories_relations_ai; DROP TRIGGER memories_relations_au;
      DROP TABLE relation_mentions; PRAGMA user_version = 13`);
    db.close();
    const c = await createEngine({ storage: 'file', path, embedder });
    expect((await c.stats()).schemaVersion).toBe(14);
    expect(await c.verify()).toEqual([]);
    await c.close();
    expect(mentions(path)).toEqual(['dentist:both', 'home:both', 'phone:none', 'work:work']);
  });

  it('an old fact behind 400 newer memories of other relations is still superseded', async () => {
    let now = Date.UTC(2026, 10, 1);
    const engine = await createEngine({
      storage: 'memory',
      embedder: await defaultEmbedder(),
      now: () => now,
    });
    const old = await engine.remember({
      text: 'My dentist is Dr Silva on Rua Augusta',
      createdAt: now - 400 * DAY,
    });
    const cities = ['Leeds', 'York', 'Bath', 'Derby', 'Ely', 'Wells', 'Ripon', 'Truro'];
    await engine.rememberMany(
      Array.from({ length: 400 }, (_, i) => ({
        text: `My colleague ${i} works in ${cities[i % cities.length]} and lives near the station`,
        createdAt: now - (399 - i) * DAY,
      })),
    );
    now += DAY;
    const current = await engine.remember({
      text: 'Switched dentists: now seeing Dr Costa at the clinic in Baixa',
    });
    const history = await engine.history(current);
    expect(history.map((h) => h.id)).toEqual([old, current]);
    expect(history[0]!.supersededBy?.id).toBe(current);
    await engine.close();
  });
});
