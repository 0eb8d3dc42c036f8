import { expect } from 'vitest';
import { AnamnesisError, type ErrorCode } from '@anamnesis/errors';
import { createTransformersEmbedder, type Embedder } from '../src/embedder.ts';
import { defaultEmbedderOptions } from '../src/engine.ts';

let shared: Promise<Embedder> | undefined;

/** The real default model, loaded once per test file; engines do not dispose an embedder they were given. */
export function defaultEmbedder(): Promise<Embedder> {
  shared ??= defaultEmbedderOptions().then(createTransformersEmbedder);
  return shared;
}

/** Asserts that a promise rejects with an AnamnesisError of `code`. */
export async function rejectsWith(p: Promise<unknown>, code: ErrorCode): Promise<AnamnesisError> {
  let caught: unknown;
  try {
    await p;
  } catch (e) {
    caught = e;
  }
  expect(caught, `expected ${code}`).toBeInstanceOf(AnamnesisError);
  expect((caught as AnamnesisError).code).toBe(code);
  return caught as AnamnesisError;
}

/** A tiny note corpus used by several tests. */
export const NOTES = [
  {
    id: 'cat',
    text: 'I adopted a kitten named Luna last spring; she sleeps on the sofa',
    tags: ['pets'],
    session: 'home',
  },
  {
    id: 'tax',
    text: 'The quarterly tax filing deadline is April 15, send receipts to the accountant',
    tags: ['finance'],
    session: 'work',
  },
  {
    id: 'hike',
    text: 'We hiked the Appalachian trail in the summer and camped by a lake',
    tags: ['travel'],
    session: 'trips',
  },
  {
    id: 'bread',
    text: 'Sourdough recipe: flour, water, salt and a starter fed overnight',
    tags: ['cooking'],
    session: 'home',
  },
  {
    id: 'meeting',
    text: 'Standup moved to 9:30; the client prefers asynchronous updates',
    tags: ['work'],
    session: 'work',
  },
  {
    id: 'dog',
    text: 'Our neighbour walks a golden retriever puppy every morning',
    tags: ['pets'],
    session: 'home',
  },
];
