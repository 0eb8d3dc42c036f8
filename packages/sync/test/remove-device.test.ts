/**
 * Issue 68: the room's and removing a lost one. Real engines on store files, the real
 * server on loopback; what the rooms hold is read on the server.
 */
import { describe, expect, it } from 'vitest';
import { KEY_CHECK } from '../src/context.ts';
import { parseSyncCode } from '../src/index.ts';
import { deriveKeys } from '../src/seal.ts';
import {
  testRooms,
  closeAll,
  converged,
  PASSPHRASE,
  texts,
  until,
  type Device,
} from './devices.ts';
import { docs } from './server.ts';

const rooms = testRooms('anamnesis-remove-');
const { device } = rooms;

/** The keys of the server's copy of a room's map. */
async function keysInRoom(room: string, passphrase: string, map: string): Promise<string[]> {
  const { room: name } = await deriveKeys(passphrase, room);
  return [...(docs.get(name)?.getMap(map).keys() ?? [])].sort();
}

describe('devices', () => {
  it('each device is listed with its name and when it was last online; one renamed is listed so everywhere', async () => {
    const a = await device('list', PASSPHRASE, { deviceName: 'laptop' });
    const b = await device('list', PASSPHRASE, { deviceName: 'phone' });
    await until(
      'both list both',
      () => a.sync.devices().length === 2 && b.sync.devices().length === 2,
      10_000,
    );
    expect(a.sync.devices()).toEqual([
      { id: a.sync.status().device, name: 'laptop', lastSeen: expect.any(Number), self: true },
      { id: b.sync.status().device, name: 'phone', lastSeen: expect.any(Number), self: false },
    ]);
    expect(Math.abs(a.sync.devices()[1]!.lastSeen - Date.now())).toBeLessThan(60_000);
    await b.sync.renameDevice('Ana’s phone');
    await until(
      'A lists the new name',
      () => a.sync.devices().some((d) => d.name === 'Ana’s phone'),
      10_000,
    );
    await expect(b.sync.renameDevice('')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await closeAll(a, b);
  });

  it('removing a lost device: the code changes, the other device moves by itself, the old room is emptied, and the removed device hears nothing new', async () => {
    const a = await device('remove', PASSPHRASE, { deviceName: 'laptop' });
    const b = await device('remove', PASSPHRASE, { deviceName: 'phone' });
    const lost = await device('remove', PASSPHRASE, { deviceName: 'old tablet' });
    await a.engine.remember({ text: 'The alarm code is 4417' });
    await converged(20_000, a, b, lost);
    await until(
      'all list three',
      () => [a, b, lost].every((d) => d.sync.devices().length === 3),
      10_000,
    );
    const lostId = lost.sync.status().device;
    await expect(a.sync.removeDevice(a.sync.status().device)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await expect(a.sync.removeDevice('no-such-device')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const heard: string[] = [];
    b.sync.onCodeChange((code) => heard.push(code));
    const code = await a.sync.removeDevice(lostId);
    expect(code).toMatch(/^([0-9A-Z]{5}-){4}[0-9A-Z]{5}$/);
    await until('B moved to the new code', () => heard.length === 1, 20_000);
    expect(heard).toEqual([code]);
    await until(
      'the removed device is told',
      () => lost.sync.status().error?.code === 'SYNC_REMOVED',
      20_000,
    );

    // what A and B write now reaches each other, never the removed device
    await a.engine.remember({ text: 'The new alarm code is 9051' });
    await b.engine.remember({ text: 'Spare key moved to the garage' });
    expect(await converged(20_000, a, b)).toEqual([
      'Spare key moved to the garage',
      'The alarm code is 4417',
      'The new alarm code is 9051',
    ]);
    await lost.engine.remember({ text: 'written on the lost tablet' });
    await new Promise((r) => setTimeout(r, 500));
    expect(await texts(lost.engine)).toEqual([
      'The alarm code is 4417',
      'written on the lost tablet',
    ]);
    expect(await texts(a.engine)).not.toContain('written on the lost tablet');
    await until(
      'both list two devices in the new room',
      () => [a, b].every((d) => d.sync.devices().length === 2),
      10_000,
    );
    expect(a.sync.devices().map((d) => d.name)).toEqual(['laptop', 'phone']);

    // the old room keeps no memory record, usage or device entry: only the marks
    expect(await keysInRoom('remove', PASSPHRASE, 'records')).toEqual([KEY_CHECK]);
    expect(await keysInRoom('remove', PASSPHRASE, 'usage')).toEqual([]);
    expect(await keysInRoom('remove', PASSPHRASE, 'devices')).toEqual(
      [a.sync.status().device, `~move.${b.sync.status().device}`, '~closed'].sort(),
    );
    const moved = parseSyncCode(code);
    expect((await keysInRoom(moved.room, moved.passphrase, 'records')).length).toBeGreaterThan(3);

    // B restarts with the old code (an app that did not keep the new one): it moves again
    await b.sync.close();
    const b2: Device = {
      ...b,
      ...(await device('remove', PASSPHRASE, { path: b.path, deviceName: 'phone' })),
    };
    await b.engine.close();
    const heard2: string[] = [];
    b2.sync.onCodeChange((c) => heard2.push(c));
    await until('B moved again', () => heard2.length === 1, 20_000);
    await a.engine.remember({ text: 'after the restart' });
    await converged(20_000, a, b2);
    await closeAll(a, b2, lost);
  });
});
