/**
 * Usage across devices (rule 4 of `resolve.ts`'s header, "usage adds up"): each device publishes
 * its own `markUsed` events of a memory, folded per kind, in the document's second map (`usage`),
 * one sealed entry per memory and device; every other device stores each device's summary beside
 * its own events (`engine.setDeviceUsage`, replaced whole by the device's next one), so each event
 * counts once everywhere. A device never republishes what it applied.
 */
import { AnamnesisError } from '@anamnesis/errors';
import type { DeviceUsage } from '@anamnesis/engine';
import { foldEvents, type FoldedUsage } from '@anamnesis/ranking';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { LOCAL, type RoomContext } from './context.ts';
import { canonical, type ExportedMemory } from './records.ts';
import { blindName, seal, unseal } from './seal.ts';

/** The `markUsed` kinds that travel (a recall's `retrieved` events stay on the device). */
const SYNCED_USAGE = new Set(['selected', 'used', 'discarded']);

/** The usage entries of one room: what each device published, and what was applied here. */
export class UsageExchange {
  readonly #room: RoomContext;
  /** Every device's own usage of each memory (this device's as last published), by id then device. */
  readonly #usage = new Map<string, Map<string, DeviceUsage[]>>();
  /** Usage entries received, not yet read. */
  readonly received = new Set<string>();
  /** Other devices' usage as applied to the store here in this run: id → device → canonical JSON. */
  readonly #applied = new Map<string, Map<string, string>>();

  constructor(room: RoomContext) {
    this.#room = room;
  }

  /** The memories with usage entries. */
  ids(): IterableIterator<string> {
    return this.#usage.keys();
  }

  /**
   * Reads the usage entries received (and the saved ones at start); with `apply`, brings other
   * devices' usage of the memories read into the store.
   */
  async read(apply: boolean): Promise<void> {
    const { keys } = this.#room;
    const names = [...this.received];
    this.received.clear();
    const changed = new Set<string>();
    let tampered: AnamnesisError | undefined;
    for (const key of names) {
      const sealed = this.#room.usage.get(key);
      if (sealed === undefined) continue;
      const dot = key.indexOf('.');
      try {
        const record = parseUsage(await unseal(keys, `usage:${key}`, sealed), key);
        if (blindName(keys, record.id) !== key.slice(0, dot))
          throw new AnamnesisError(
            'SYNC_TAMPERED',
            `the synced usage ${key} names another memory`,
            {
              details: { key },
            },
          );
        const byDevice = this.#usage.get(record.id) ?? new Map<string, DeviceUsage[]>();
        byDevice.set(key.slice(dot + 1), record.usage);
        this.#usage.set(record.id, byDevice);
        changed.add(record.id);
      } catch (e) {
        if (!(e instanceof AnamnesisError)) throw e;
        tampered = e;
      }
    }
    if (tampered) this.#room.fail(tampered);
    if (apply) await this.apply(changed);
  }

  /** Brings other devices' usage of `ids` into the store here (those it has). */
  async apply(ids: Iterable<string>): Promise<void> {
    for (const id of ids) {
      for (const [device, usage] of this.#usage.get(id) ?? []) {
        if (device === this.#room.device) continue;
        const applied = this.#applied.get(id) ?? new Map<string, string>();
        const text = canonical(usage);
        if (applied.get(device) === text) continue;
        try {
          await this.#room.engine.setDeviceUsage(id, device, usage);
        } catch (e) {
          if ((e as { code?: string }).code === 'NOT_FOUND') continue; // applied when it arrives
          this.#room.fail(e);
          continue;
        }
        applied.set(device, text);
        this.#applied.set(id, applied);
      }
    }
  }

  /** Publishes this device's own usage of the memories in `local` where it changed. */
  async publish(ids: readonly string[], local: Map<string, ExportedMemory>): Promise<void> {
    const { keys, device } = this.#room;
    const writes: [string, Uint8Array][] = [];
    for (const id of ids) {
      const have = local.get(id);
      if (!have) continue;
      const usage = ownUsage(have);
      const published = this.#usage.get(id)?.get(device);
      if (published ? sameUsage(published, usage) : usage.length === 0) continue;
      const key = `${blindName(keys, id)}.${device}`;
      const bytes = utf8ToBytes(JSON.stringify({ id, usage }));
      writes.push([key, await seal(keys, `usage:${key}`, bytes)]);
      const byDevice = this.#usage.get(id) ?? new Map<string, DeviceUsage[]>();
      byDevice.set(device, usage);
      this.#usage.set(id, byDevice);
    }
    if (writes.length === 0) return;
    this.#room.doc.transact(() => {
      for (const [key, bytes] of writes) this.#room.usage.set(key, bytes);
    }, LOCAL);
    this.#room.wrote(writes.map(([key]) => `usage:${key}`));
  }
}

/** A memory's own usage as the engine exports it, folded per kind (sorted by kind). */
function ownUsage(line: ExportedMemory): DeviceUsage[] {
  const folds = new Map<string, FoldedUsage>();
  for (const f of line.usageFolded ?? [])
    if (SYNCED_USAGE.has(f.event)) folds.set(f.event, { ...f });
  foldEvents(
    folds,
    (line.usage ?? []).filter((u) => SYNCED_USAGE.has(u.event)),
  );
  return [...folds.values()]
    .sort((a, b) => (a.event < b.event ? -1 : 1))
    .map((f) => ({ ...f, event: f.event as DeviceUsage['event'] }));
}

/** Whether two usages are the same (the decayed sums up to rounding: a fold of old events). */
function sameUsage(a: DeviceUsage[], b: DeviceUsage[]): boolean {
  return (
    a.length === b.length &&
    a.every(
      (u, i) =>
        u.event === b[i]!.event &&
        u.count === b[i]!.count &&
        u.at === b[i]!.at &&
        Math.abs(u.decayed - b[i]!.decayed) <= 1e-9 * Math.max(1, u.decayed),
    )
  );
}

/** A usage entry's JSON, checked: `SYNC_TAMPERED` if it is not one. */
function parseUsage(bytes: Uint8Array, key: string): { id: string; usage: DeviceUsage[] } {
  let r: { id?: unknown; usage?: unknown };
  try {
    r = JSON.parse(new TextDecoder().decode(bytes)) as typeof r;
  } catch (cause) {
    throw new AnamnesisError('SYNC_TAMPERED', `the synced usage ${key} is not JSON`, {
      cause,
      details: { key },
    });
  }
  const ok =
    r !== null &&
    typeof r === 'object' &&
    typeof r.id === 'string' &&
    Array.isArray(r.usage) &&
    r.usage.every(
      (u: Partial<DeviceUsage> | null) =>
        u !== null &&
        typeof u === 'object' &&
        SYNCED_USAGE.has(u.event as string) &&
        Number.isSafeInteger(u.count) &&
        Number.isFinite(u.decayed) &&
        Number.isFinite(u.at),
    );
  if (!ok)
    throw new AnamnesisError('SYNC_TAMPERED', `the synced usage ${key} is not a usage record`, {
      details: { key },
    });
  return r as { id: string; usage: DeviceUsage[] };
}
