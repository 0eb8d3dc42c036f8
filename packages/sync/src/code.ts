/**
 * Sync codes: what a person copies from one device to another to pair them. A code is 24 random
 * Crockford base-32 characters (120 bits) and a check character, shown in five groups of five
 * (`7KQ2M-0XW4R-…`). The whole code is the passphrase; its first 8 characters are the room, the
 * salt of the slow key derivation (`seal.ts`) that gives both the key and the room's name on the
 * server, so the name depends on all 120 bits and tells nothing of the key. Typing is forgiving: case, spaces and dashes do not matter, O reads as 0, I and
 * L as 1; a mistyped character fails the check (`INVALID_INPUT`) rather than pairing with nobody.
 */
import { AnamnesisError } from '@anamnesis/errors';
import type { SyncOptions } from './types.ts';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const DATA_CHARS = 24;
const ROOM_CHARS = 8;

function check(data: string): string {
  let sum = 0;
  for (let i = 0; i < data.length; i++) sum += (i + 1) * ALPHABET.indexOf(data[i]!);
  // 31 is prime: one wrong character or two neighbours swapped change it (unless the two values
  // differ by 31: 0 and Z)
  return ALPHABET[sum % 31]!;
}

/** A new random sync code. */
export function createSyncCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(DATA_CHARS));
  let data = '';
  for (const b of bytes) data += ALPHABET.charAt(b & 31);
  const code = data + check(data);
  return code.match(/.{5}/g)!.join('-');
}

/** The room and passphrase of a sync code (`INVALID_INPUT` for one mistyped or incomplete). */
export function parseSyncCode(code: string): Pick<SyncOptions, 'room' | 'passphrase'> {
  if (typeof code !== 'string')
    throw new AnamnesisError('INVALID_INPUT', 'a sync code must be a string');
  const clean = code.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (clean.length !== DATA_CHARS + 1 || !/^[0-9A-Z]+$/.test(clean) || /[ILOU]/.test(clean))
    throw new AnamnesisError(
      'INVALID_INPUT',
      `a sync code has ${DATA_CHARS + 1} letters and digits (five groups of five)`,
    );
  const data = clean.slice(0, DATA_CHARS);
  if (check(data) !== clean[DATA_CHARS])
    throw new AnamnesisError('INVALID_INPUT', 'the sync code is mistyped (its check fails)');
  return { room: `code-${data.slice(0, ROOM_CHARS)}`, passphrase: data };
}
