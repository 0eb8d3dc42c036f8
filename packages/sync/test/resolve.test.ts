import { describe, expect, it } from 'vitest';
import { Clock } from '../src/clock.ts';
import { resolveRecords, Resolution, winner } from '../src/resolve.ts';
import type { SyncRecord } from '../src/records.ts';
import { createSyncCode, parseSyncCode } from '../src/code.ts';

const memory = (text: string) => ({
  text,
  kind: 'note',
  session: null,
  tags: [],
  meta: {},
  importance: 0.5,
  createdAt: 1,
  links: [],
});

describe('the conflict rules', () => {
  it('hybrid logical clocks: a stamp made after seeing another is later, even from a clock behind', () => {
    const ahead = new Clock('a', () => 10_000);
    const behind = new Clock('b', () => 5_000);
    const first = ahead.tick();
    behind.see(first);
    const second = behind.tick();
    expect(second > first).toBe(true);
    expect(ahead.tick() > first).toBe(true);
  });

  it('last writer wins by stamp; a forget beats an edit that did not see it, not one that did', () => {
    const a = new Clock('a', () => 1000);
    const b = new Clock('b', () => 2000);
    const created = a.tick();
    const edit: SyncRecord = {
      id: 'm',
      at: a.tick(),
      seen: created,
      memory: memory('edited on a'),
    };
    const forget: SyncRecord = { id: 'm', at: b.tick(), seen: created, forgotten: true };
    // the edit is concurrent with the forget (it saw only the creation): the forget wins, even
    // when the edit's stamp is later
    const lateEdit: SyncRecord = { ...edit, at: new Clock('c', () => 9000).tick() };
    expect(winner([edit, forget])).toBe(forget);
    expect(winner([lateEdit, forget])).toBe(forget);
    // an edit made after seeing the forget brings the memory back
    const back: SyncRecord = {
      id: 'm',
      at: 'zzzzzzzzz.0000.a',
      seen: forget.at,
      memory: memory('back'),
    };
    expect(winner([forget, back])).toBe(back);
    // two edits: the later stamp
    const other: SyncRecord = {
      id: 'm',
      at: b.tick(),
      seen: created,
      memory: memory('edited on b'),
    };
    expect(winner([other, edit])).toBe(other);
    expect(winner([edit, other])).toBe(other);
  });

  it('one text, one memory: the smaller id is kept, whatever the order', () => {
    const r = (id: string, textHash: string): SyncRecord => ({
      id,
      at: '000000001.0000.a',
      seen: '',
      textHash,
      memory: memory(textHash),
    });
    for (const order of [
      [r('b2', 'x'), r('a1', 'x'), r('c3', 'y')],
      [r('a1', 'x'), r('c3', 'y'), r('b2', 'x')],
    ]) {
      const resolution = new Resolution();
      for (const record of order) resolution.set('d', record);
      expect(['a1', 'b2', 'c3'].map((id) => resolution.keeperOf(id))).toEqual([
        undefined,
        'a1',
        undefined,
      ]);
      expect(resolution.sameText('b2').sort()).toEqual(['a1', 'b2']);
    }
  });

  it('kept up to date record by record, the answer is the one the rules give from scratch, whatever the order (random histories)', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
    for (let run = 0; run < 200; run++) {
      const history: [string, SyncRecord][] = [];
      for (let i = 0; i < 30; i++) {
        const at = `${String(1000 + Math.floor(random() * 50)).padStart(9, '0')}.0000.${pick(['a', 'b', 'c'])}`;
        const seen =
          random() < 0.5 ? '' : at.replace(/^\d+/, (n) => String(Number(n) - 5).padStart(9, '0'));
        const id = pick(['m1', 'm2', 'm3', 'm4']);
        const forgotten = random() < 0.25;
        const text = pick(['x', 'y']);
        history.push([
          pick(['a', 'b', 'c']),
          forgotten
            ? { id, at, seen, forgotten: true }
            : { id, at, seen, textHash: text, memory: memory(text) },
        ]);
      }
      const incremental = new Resolution();
      for (const [device, record] of history) incremental.set(device, record);
      // from scratch: each device's newest record of each memory, then the rules
      const newest = new Map<string, Map<string, SyncRecord>>();
      for (const [device, record] of history) {
        const byDevice = newest.get(record.id) ?? new Map<string, SyncRecord>();
        const old = byDevice.get(device);
        if (!old || record.at > old.at) byDevice.set(device, record);
        newest.set(record.id, byDevice);
      }
      const live = new Map<string, SyncRecord>();
      for (const [id, byDevice] of newest) {
        const w = resolveRecords(byDevice.values());
        expect(incremental.winner(id)).toEqual(w);
        expect(w?.forgotten).toBe(winner(byDevice.values())?.forgotten);
        if (w && !w.forgotten) live.set(id, w);
      }
      for (const id of newest.keys()) {
        const w = live.get(id);
        const keeper = w
          ? [...live.values()]
              .filter((r) => r.textHash === w.textHash)
              .map((r) => r.id)
              .sort()[0]
          : undefined;
        expect(incremental.keeperOf(id)).toBe(keeper === id ? undefined : keeper);
      }
    }
  });
});

describe('sync codes', () => {
  it('round-trip, forgiving of case, spaces and look-alike letters; a typo fails the check', () => {
    const code = createSyncCode();
    expect(code).toMatch(/^([0-9A-Z]{5}-){4}[0-9A-Z]{5}$/);
    const parsed = parseSyncCode(code);
    expect(parseSyncCode(` ${code.toLowerCase().replace(/-/g, ' ')} `)).toEqual(parsed);
    expect(parseSyncCode(code.replace(/0/g, 'O').replace(/1/g, 'l'))).toEqual(parsed);
    expect(parsed.room).toBe(`code-${code.replace(/-/g, '').slice(0, 8)}`);
    const i = 12;
    const chars = code.replace(/-/g, '').split('');
    chars[i] = chars[i] === '2' ? '3' : '2';
    expect(() => parseSyncCode(chars.join(''))).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
    expect(() => parseSyncCode('short')).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
  });
});
