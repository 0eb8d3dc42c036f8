/**
 * What a join found in the room, told to the person: a room the server holds nothing for is
 * either new (this is the first device with this code, or the code was mistyped here or on the
 * other device: the room's name comes from the whole code, so a wrong code meets an empty room of
 * its own) or lost by the server (restarted without keeping rooms, or wiped). Either way the join
 * "succeeds", so without a word the person would believe the devices sync.
 *
 * Whether the server's copy was empty is read from the first message of each connection: the
 * server opens with its state vector (sync step 1 of the Yjs protocol), empty for an empty room.
 */
import type { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';

/** What {@link explainJoin} says when the room was empty and this device expected nothing. */
export const FIRST_IN_ROOM =
  'No other device has used this code yet: if your other devices sync with this code, check that it is typed the same on each.';
/** What {@link explainJoin} says when the room was empty and this device held its records. */
export const ROOM_LOST =
  'The server held nothing for this code (restarted without keeping rooms, or wiped): this device sent back what it holds.';

/**
 * One line on a join, or null: `serverEmpty`, whether the server's copy of the room was empty
 * (undefined if not known: then whether this device wrote the room's first entry, its key check,
 * stands for it); `expected`, whether this device's saved state held records of the room.
 */
export function explainJoin(join: {
  serverEmpty: boolean | undefined;
  wroteKeyCheck: boolean;
  expected: boolean;
}): string | null {
  const empty = join.serverEmpty ?? join.wroteKeyCheck;
  if (!empty) return null;
  return join.expected ? ROOM_LOST : FIRST_IN_ROOM;
}

/** The Yjs sync protocol's message type of `y-websocket`, and its first step's sub-type. */
const MESSAGE_SYNC = 0;
const SYNC_STEP_1 = 0;

type Handler = (
  encoder: unknown,
  decoder: { arr: Uint8Array; pos: number },
  ...rest: unknown[]
) => void;

/**
 * Calls `onServerState` with whether the server's copy of the room is empty, at each connection
 * (from the state vector of the server's sync step 1). It wraps the provider's handler of sync
 * messages, reading ahead without moving it; a provider without one (another version) is left
 * as it is, and the join is then judged by its key check.
 */
export function watchServerState(
  provider: WebsocketProvider,
  onServerState: (empty: boolean) => void,
): void {
  const handlers = (provider as unknown as { messageHandlers?: Handler[] }).messageHandlers;
  const original = handlers?.[MESSAGE_SYNC];
  if (!handlers || typeof original !== 'function') return;
  handlers[MESSAGE_SYNC] = (encoder, decoder, ...rest) => {
    try {
      const { arr, pos } = decoder;
      if (arr instanceof Uint8Array && arr[pos] === SYNC_STEP_1) {
        let at = pos + 1;
        let length = 0;
        for (let shift = 0; ; shift += 7) {
          const byte = arr[at++]!;
          length += (byte & 0x7f) * 2 ** shift;
          if (byte < 0x80) break;
        }
        onServerState(Y.decodeStateVector(arr.subarray(at, at + length)).size === 0);
      }
    } catch {
      // not a message this reads: the join is judged by its key check
    }
    original(encoder, decoder, ...rest);
  };
}
