import { describe, expect, it } from 'vitest';
import { Clock, ZERO } from '../src/clock.ts';
import { stampFields, type MergedRecord } from '../src/merge.ts';
import { textHash, type SyncedMemory, type SyncRecord } from '../src/records.ts';
import { parseRecord, recordBytes } from '../src/wire.ts';
import { resolveRecords } from '../src/resolve.ts';

const state = (patch: Partial<SyncedMemory> = {}): SyncedMemory => ({
  text: 'Dentist on Tuesday',
  kind: 'note',
  session: null,
  tags: [],
  meta: {},
  importance: 0.5,
  createdAt: 1,
  links: [],
  ...patch,
});

/** A device as the sync runs one: its clock, and its newest record of the memory. */
class Device {
  readonly clock: Clock;
  constructor(
    readonly name: string,
    wall: number,
  ) {
    this.clock = new Clock(name, () => wall);
  }
  /** Its record of `memory` as it is here, written over `base` (the merge it had). */
  write(memory: SyncedMemory, base: MergedRecord | undefined, renewText = false): SyncRecord {
    if (base) this.clock.see(base.at);
    const at = this.clock.tick();
    return {
      id: 'm',
      at,
      seen: base?.at ?? ZERO,
      textHash: textHash(memory),
      memory,
      fields: stampFields(memory, base, at, renewText),
    };
  }
}

/** The merge of the devices' newest records, checked to be the same in every order. */
function merged(...records: SyncRecord[]): MergedRecord {
  const first = resolveRecords(records)!;
  expect(resolveRecords([...records].reverse())).toEqual(first);
  expect(resolveRecords([...records.slice(1), records[0]!])).toEqual(first);
  return first;
}

describe('merge per field', () => {
  it('a tag added on one device and the text edited on another, both apart: both stay', () => {
    const a = new Device('a', 1000);
    const b = new Device('b', 2000);
    const start = merged(a.write(state({ tags: ['health'] }), undefined));
    const tagged = a.write(state({ tags: ['health', 'family'] }), start);
    const edited = b.write(state({ tags: ['health'], text: 'Dentist on Wednesday' }), start);
    const end = merged(tagged, edited);
    expect(end.memory).toMatchObject({ text: 'Dentist on Wednesday', tags: ['family', 'health'] });
    expect(end.conflicts).toEqual([]);
  });

  it('tags as a set: a removal on one device and an add of another tag elsewhere both hold; an add after the removal brings it back', () => {
    const a = new Device('a', 1000);
    const b = new Device('b', 2000);
    const start = merged(a.write(state({ tags: ['x', 'y'] }), undefined));
    const removed = a.write(state({ tags: ['y'] }), start);
    const added = b.write(state({ tags: ['x', 'y', 'z'] }), start);
    const end = merged(removed, added);
    expect(end.memory!.tags).toEqual(['y', 'z']);
    // B, having seen the removal, adds x again: it is back
    const again = b.write(state({ tags: ['x', 'y', 'z'] }), end);
    expect(merged(removed, again).memory!.tags).toEqual(['x', 'y', 'z']);
  });

  it('meta key by key: a key set on one device and another removed elsewhere', () => {
    const a = new Device('a', 1000);
    const b = new Device('b', 2000);
    const start = merged(a.write(state({ meta: { room: 4, floor: 2 } }), undefined));
    const setA = a.write(state({ meta: { room: 5, floor: 2 } }), start);
    const removeB = b.write(state({ meta: { room: 4 }, importance: 0.8 }), start);
    const end = merged(setA, removeB);
    expect(end.memory).toMatchObject({ meta: { room: 5 }, importance: 0.8 });
  });

  it('two text edits apart: the later is the text, the other a conflict version until an edit made over both', () => {
    const a = new Device('a', 1000);
    const b = new Device('b', 2000);
    const start = merged(a.write(state(), undefined));
    const mine = a.write(state({ text: 'Dentist on Tuesday at 9' }), start);
    const theirs = b.write(state({ text: 'Dentist moved to Thursday' }), start);
    const end = merged(mine, theirs);
    expect(end.memory!.text).toBe('Dentist moved to Thursday');
    expect(end.conflicts!.map((c) => c.text)).toEqual(['Dentist on Tuesday at 9']);
    // one edit after the other is no conflict
    const later = a.write(state({ text: 'Dentist on Thursday at 9' }), end);
    expect(merged(later, theirs).conflicts).toEqual([]);
    expect(merged(later, theirs).memory!.text).toBe('Dentist on Thursday at 9');
    // keeping the text as it is (renewed over both) settles it too
    const kept = b.write(end.memory!, end, true);
    expect(merged(mine, kept)).toMatchObject({
      conflicts: [],
      memory: { text: 'Dentist moved to Thursday' },
    });
  });

  it('stamps travel packed (a stamp equal to the record’s own is 0, a new memory’s are 1) and read back the same; malformed stamps are tampering', () => {
    const a = new Device('a', 1000);
    const b = new Device('b', 2000);
    const fresh = a.write(state({ tags: ['x'], meta: { k: 1 } }), undefined);
    const edited = b.write(state({ tags: ['y'], meta: {}, text: 'other' }), merged(fresh));
    for (const record of [fresh, edited])
      expect(parseRecord(recordBytes(record), 'key')).toEqual(record);
    expect(new TextDecoder().decode(recordBytes(fresh))).toContain('"fields":1');
    const bad = JSON.parse(new TextDecoder().decode(recordBytes(edited))) as { fields: object };
    bad.fields = { ...bad.fields, tags: { y: ['not a stamp', ''] } };
    expect(() => parseRecord(new TextEncoder().encode(JSON.stringify(bad)), 'key')).toThrow(
      expect.objectContaining({ code: 'SYNC_TAMPERED' }),
    );
  });

  it('a record written before per-field stamps reads as its state whole at its stamp', () => {
    const old = (at: string, memory: SyncedMemory): SyncRecord => ({
      id: 'm',
      at,
      seen: ZERO,
      textHash: textHash(memory),
      memory,
    });
    const first = old('000000100.0000.a', state({ tags: ['x'], meta: { k: 1 } }));
    const second: SyncRecord = {
      ...old('000000200.0000.b', state({ text: 'changed', tags: [], meta: {} })),
      seen: first.at,
    };
    const end = merged(first, second);
    expect(end.memory).toMatchObject({ text: 'changed', tags: [], meta: {} });
    expect(end.conflicts).toEqual([]);
  });

  it('random histories of three devices: every order of arrival gives the same merge, and each part is its latest write', () => {
    let seed = 11;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
    for (let run = 0; run < 100; run++) {
      const devices = ['a', 'b', 'c'].map((name, i) => new Device(name, 1000 + i));
      const newest = new Map<string, SyncRecord>();
      // what each device has merged so far: the records it has received
      const known = new Map<string, Map<string, SyncRecord>>(
        devices.map((d) => [d.name, new Map()]),
      );
      for (let step = 0; step < 12; step++) {
        const d = pick(devices);
        const mine = known.get(d.name)!;
        const base = mine.size > 0 ? resolveRecords(mine.values()) : undefined;
        const was = base?.memory ?? state();
        const tags = random() < 0.5 ? was.tags : [pick(['x', 'y', 'z'])];
        const next = state({
          ...was,
          text: random() < 0.4 ? `text ${step}` : was.text,
          importance: random() < 0.3 ? step / 12 : was.importance,
          tags,
        });
        const record = d.write(next, base);
        newest.set(d.name, record);
        mine.set(d.name, record);
        // it reaches another device, or not
        const to = pick(devices);
        known.get(to.name)!.set(d.name, record);
        to.clock.see(record.at);
      }
      const all = [...newest.values()];
      const end = merged(...all);
      const latestImportance = all.reduce((x, y) =>
        y.fields!.importance > x.fields!.importance ? y : x,
      );
      expect(end.memory!.importance).toBe(latestImportance.memory!.importance);
      expect(end.memory!.tags).toEqual([...new Set(end.memory!.tags)].sort());
    }
  });
});
