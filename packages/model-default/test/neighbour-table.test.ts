/**
 * The neighbour table's bytes (`neighbour-table.ts`): what the decoder answers is what was
 * encoded, read from the bytes on demand, and bytes the encoder never writes are refused.
 */
import { describe, expect, it } from 'vitest';
import { decodeNeighbourTable, encodeNeighbourTable, type NeighbourTable } from '../src/index.ts';

/** A table of `rows` rows with a spread of words and lists of every length up to 3. */
function table(rows: number): NeighbourTable {
  const neighbours = new Map<number, readonly number[]>();
  for (let id = 3; id < rows; id += 7)
    neighbours.set(
      id,
      [(id * 5 + 1) % rows, (id * 11 + 2) % rows, rows - 1].slice(0, 1 + (id % 3)),
    );
  return {
    rows,
    dims: 8,
    fingerprint: 0xdead_beef,
    perWord: 3,
    minCosine: Math.fround(0.7),
    neighbours,
  };
}

describe('neighbour table', () => {
  for (const rows of [1_000, 70_000]) {
    it(`decodes what was encoded (${rows <= 0xffff ? '2' : '4'}-byte ids), from bytes at any offset`, () => {
      const made = table(rows);
      const bytes = encodeNeighbourTable(made);
      // a copy that starts one byte into its buffer, as a slice of a larger read can
      const shifted = new Uint8Array(bytes.length + 1).subarray(1);
      shifted.set(bytes);
      for (const b of [bytes, shifted]) {
        const read = decodeNeighbourTable(b);
        expect({ ...read, neighbours: undefined }).toEqual({ ...made, neighbours: undefined });
        expect(read.neighbours.size).toBe(made.neighbours.size);
        expect(new Map(read.neighbours)).toEqual(made.neighbours);
        expect([...read.neighbours.keys()]).toEqual([...made.neighbours.keys()]);
        for (const id of [0, 3, 4, 10, 17, rows - 1, rows]) {
          expect(read.neighbours.get(id), String(id)).toEqual(made.neighbours.get(id));
          expect(read.neighbours.has(id)).toBe(made.neighbours.has(id));
        }
        let visited = 0;
        read.neighbours.forEach((list, id, map) => {
          expect(list).toEqual(made.neighbours.get(id));
          expect(map).toBe(read.neighbours);
          visited++;
        });
        expect(visited).toBe(made.neighbours.size);
      }
    });
  }

  it('refuses a word out of order or listed twice, a row outside the table, and a word with no neighbour', () => {
    const bytes = encodeNeighbourTable(table(1_000));
    const at = (i: number) => 32 + i * 2;
    const altered = (edit: (view: DataView) => void) => {
      const copy = bytes.slice();
      edit(new DataView(copy.buffer));
      return () => decodeNeighbourTable(copy);
    };
    const listed = new DataView(bytes.buffer).getUint32(28, true);
    const lists = 32 + listed * 2;
    expect(altered((v) => v.setUint16(at(1), v.getUint16(at(0), true), true))).toThrow(/bad entry/);
    expect(altered((v) => v.setUint16(at(0), 5_000, true))).toThrow(/bad entry/);
    expect(altered((v) => v.setUint16(lists, 1_000, true))).toThrow(/outside the table/);
    expect(
      altered((v) => {
        for (let j = 0; j < 3; j++) v.setUint16(lists + j * 2, 0xffff, true);
      }),
    ).toThrow(/bad entry/);
    expect(() => decodeNeighbourTable(bytes.subarray(0, bytes.length - 2))).toThrow(/wrong length/);
  });
});
