/**
 * A device's own key pair (X25519, WebCrypto), made at its first start and kept in its sync state:
 * its public half is in the room's device list (`devices.ts`), so that when a person removes a
 * device, the device that removes it can give every other device the new sync code sealed for that
 * device alone (ECDH of its own key and theirs, HKDF-SHA-256, AES-256-GCM), which the removed
 * device, holding the old room key, cannot open. The key of the static ECDH also tells each device
 * which listed device sent it.
 */
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/** A device's key pair. */
export interface Identity {
  readonly privateKey: CryptoKey;
  /** The raw public key, 32 bytes (hex in the device list). */
  readonly publicKey: string;
  /** The private key as a JWK in JSON (what the device's sync state keeps). */
  readonly saved: string;
}

const X25519 = { name: 'X25519' } as const;

/** A new key pair. */
export async function newIdentity(): Promise<Identity> {
  const pair = await crypto.subtle.generateKey(X25519, true, ['deriveBits']);
  return loadIdentity(JSON.stringify(await crypto.subtle.exportKey('jwk', pair.privateKey)));
}

/** The key pair kept as `saved` (a private JWK in JSON). */
export async function loadIdentity(saved: string): Promise<Identity> {
  const jwk = JSON.parse(saved) as JsonWebKey;
  const privateKey = await crypto.subtle.importKey('jwk', jwk, X25519, false, ['deriveBits']);
  const pub = await crypto.subtle.importKey(
    'jwk',
    { kty: jwk.kty, crv: jwk.crv, x: jwk.x },
    X25519,
    true,
    [],
  );
  return {
    privateKey,
    publicKey: bytesToHex(new Uint8Array(await crypto.subtle.exportKey('raw', pub))),
    saved,
  };
}

function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** The AES-GCM key `own` and `peer` (hex public key) share for `label`. */
async function shared(own: Identity, peer: string, label: string): Promise<CryptoKey> {
  const peerKey = await crypto.subtle.importKey('raw', hexToBytes(peer), X25519, false, []);
  const bits = await crypto.subtle.deriveBits(
    { name: 'X25519', public: peerKey },
    own.privateKey,
    256,
  );
  const hkdf = await crypto.subtle.importKey('raw', bits, 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    {
      name: 'HKDF',
      hash: 'SHA-256',
      salt: utf8ToBytes('anamnesis-sync device') as Uint8Array<ArrayBuffer>,
      info: utf8ToBytes(label) as Uint8Array<ArrayBuffer>,
    },
    hkdf,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/** `text` sealed from `own` to `peer` (hex public key), bound to `label`: nonce ‖ ciphertext, hex. */
export async function sealTo(
  own: Identity,
  peer: string,
  label: string,
  text: string,
): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv },
    await shared(own, peer, label),
    utf8ToBytes(text),
  );
  return bytesToHex(iv) + bytesToHex(new Uint8Array(ct));
}

/** What `peer` sealed to `own` for `label` (throws when it does not open). */
export async function openFrom(
  own: Identity,
  peer: string,
  label: string,
  sealed: string,
): Promise<string> {
  const bytes = hexToBytes(sealed);
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: bytes.subarray(0, 12) },
    await shared(own, peer, label),
    bytes.subarray(12),
  );
  return new TextDecoder().decode(plain);
}
