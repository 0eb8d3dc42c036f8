/**
 * The room's devices, and removing one. Each device keeps an entry in the room's `devices` map,
 * sealed under the room's key like every record: its name, when it was last online (written at
 * every join and every ten minutes while online) and its public key (`identity.ts`).
 *
 * Removing a device changes the code. The device that removes it makes a new code and, in one
 * write to the old room: seals the new code for each other listed device to that device's public
 * key (`~move.<device>`; the removed device, which holds the old room's key, cannot open these),
 * marks the room closed (`~closed`: by whom, which device was removed), and deletes every memory
 * record, usage entry and other device's entry of the room. Then it moves to the new room and publishes
 * its whole store there. Each other device, when it sees the mark (online then, or at its next
 * join), opens its envelope, checks that a listed device that was not the one removed sent it, and
 * moves too; the removed device is told `SYNC_REMOVED` and hears nothing more. The old room keeps
 * only the marks, the envelopes and the entry of the device that changed the code.
 */
import { AnamnesisError } from '@anamnesis/errors';
import type { SyncDevice } from '@anamnesis/engine';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { KEY_CHECK, LOCAL, type RoomContext } from './context.ts';
import { openFrom, sealTo, type Identity } from './identity.ts';
import { seal, unseal } from './seal.ts';

const CLOSED = '~closed';
const MOVE = '~move.';

/** A device's entry in the room. */
interface DeviceEntry {
  name: string;
  /** When it was last online, ms since the epoch. */
  seen: number;
  /** Its public key (hex). */
  key: string;
}

/** The mark of a room whose code was changed. */
export interface ClosedMark {
  /** The device that changed it. */
  by: string;
  /** The device it removed. */
  removed: string;
  /** When, ms since the epoch. */
  at: number;
}

/** A device's name from the browser's user agent ("Firefox on Linux"), or a plain one. */
export function defaultDeviceName(): string {
  const ua = globalThis.navigator?.userAgent ?? '';
  const browser = /Firefox\//.test(ua)
    ? 'Firefox'
    : /Edg\//.test(ua)
      ? 'Edge'
      : /Chrom(e|ium)\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : undefined;
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : undefined;
  return browser ? `${browser}${os ? ` on ${os}` : ''}` : 'a device';
}

/** One room's devices, as this device reads and writes them. */
export class DeviceRoster {
  readonly #room: RoomContext;
  readonly #identity: Identity;
  readonly #now: () => number;
  #name: string;
  readonly #entries = new Map<string, DeviceEntry>();
  #closed: ClosedMark | undefined;

  constructor(room: RoomContext, identity: Identity, name: string, now: () => number) {
    this.#room = room;
    this.#identity = identity;
    this.#name = name;
    this.#now = now;
  }

  /** The room was closed (its code changed): by whom, and which device it removed. */
  get closed(): ClosedMark | undefined {
    return this.#closed;
  }

  async #seal(key: string, value: unknown): Promise<Uint8Array> {
    return seal(this.#room.keys, `device:${key}`, utf8ToBytes(JSON.stringify(value)));
  }

  async #open<T>(key: string, sealed: Uint8Array): Promise<T> {
    return JSON.parse(
      new TextDecoder().decode(await unseal(this.#room.keys, `device:${key}`, sealed)),
    ) as T;
  }

  /** Writes this device's entry (its name, now as its last time online, its public key). */
  async publish(): Promise<void> {
    const { device, doc, devices } = this.#room;
    const entry: DeviceEntry = {
      name: this.#name,
      seen: this.#now(),
      key: this.#identity.publicKey,
    };
    const sealed = await this.#seal(device, entry);
    doc.transact(() => devices.set(device, sealed), LOCAL);
    this.#entries.set(device, entry);
  }

  /** Renames this device (1–100 characters) and publishes it. */
  async rename(name: string): Promise<void> {
    if (typeof name !== 'string' || name.trim().length === 0 || name.length > 100)
      throw new AnamnesisError('INVALID_INPUT', 'a device name has 1–100 characters');
    this.#name = name.trim();
    await this.publish();
  }

  /** Reads the room's entries (one that does not open is skipped, and told). */
  async read(): Promise<void> {
    const { devices } = this.#room;
    this.#entries.clear();
    this.#closed = undefined;
    for (const [key, sealed] of devices) {
      if (key.startsWith(MOVE)) continue; // read by the device it is for, when the room is closed
      try {
        if (key === CLOSED) this.#closed = await this.#open<ClosedMark>(key, sealed);
        else this.#entries.set(key, await this.#open<DeviceEntry>(key, sealed));
      } catch (e) {
        if (!(e instanceof AnamnesisError)) throw e;
        this.#room.fail(e);
      }
    }
  }

  /** The devices listed, this one first, then by when they were last online. */
  list(): SyncDevice[] {
    const { device } = this.#room;
    return [...this.#entries]
      .map(([id, e]) => ({ id, name: e.name, lastSeen: e.seen, self: id === device }))
      .sort((a, b) => Number(b.self) - Number(a.self) || b.lastSeen - a.lastSeen);
  }

  /**
   * The new code sealed for this device in a closed room, if a listed device other than the one
   * removed sent it and it opens; undefined otherwise.
   */
  async newCode(): Promise<string | undefined> {
    const { device, devices } = this.#room;
    const closed = this.#closed;
    const sealed = devices.get(`${MOVE}${device}`);
    if (!closed || !sealed || closed.removed === device) return undefined;
    try {
      const move = await this.#open<{ from: string; code: string }>(`${MOVE}${device}`, sealed);
      const from = this.#entries.get(move.from);
      if (!from || move.from === closed.removed || move.from !== closed.by) return undefined;
      return await openFrom(this.#identity, from.key, `move:${device}`, move.code);
    } catch {
      return undefined;
    }
  }

  /**
   * Closes the room for `removed` (see the file's comment): the new `code` sealed for every other
   * listed device, the mark, and the room's memory records, usage and device entries deleted.
   */
  async close(removed: string, code: string): Promise<void> {
    const { device, doc, devices, records, usage } = this.#room;
    if (removed === device)
      throw new AnamnesisError('INVALID_INPUT', 'a device cannot remove itself: stop its sync');
    if (!this.#entries.has(removed))
      throw new AnamnesisError('NOT_FOUND', `no device ${removed} in this room`, {
        details: { id: removed },
      });
    const writes: [string, Uint8Array][] = [];
    for (const [id, entry] of this.#entries) {
      if (id === device || id === removed) continue;
      const sealedCode = await sealTo(this.#identity, entry.key, `move:${id}`, code);
      writes.push([
        `${MOVE}${id}`,
        await this.#seal(`${MOVE}${id}`, { from: device, code: sealedCode }),
      ]);
    }
    const mark: ClosedMark = { by: device, removed, at: this.#now() };
    writes.push([CLOSED, await this.#seal(CLOSED, mark)]);
    doc.transact(() => {
      for (const key of [...records.keys()]) if (key !== KEY_CHECK) records.delete(key);
      for (const key of [...usage.keys()]) usage.delete(key);
      // this device's entry stays: its key is what the others check their envelope's sender by
      for (const key of [...devices.keys()]) if (key !== device) devices.delete(key);
      for (const [key, bytes] of writes) devices.set(key, bytes);
    }, LOCAL);
    this.#closed = mark;
  }
}
