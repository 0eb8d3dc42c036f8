import { countTokens } from '@anamnesis/ranking';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.ts';
import { rejectsWith } from './helpers.ts';

/** A long Python chunk: imports, field assignments and log calls collapse; rare lines stay. */
const CHUNK = [
  'import os',
  'import sys',
  'import json',
  'import time',
  'import logging',
  '',
  'class InvoiceExporter:',
  '    def __init__(self, client, folder):',
  '        self.client = client',
  '        self.folder = folder',
  '        self.retries = 3',
  '        self.timeout = 30',
  '        self.count = 0',
  '',
  '    def export(self, invoices):',
  '        logging.info("starting export")',
  '        logging.info("invoices: %d", len(invoices))',
  '        logging.debug("folder %s", self.folder)',
  ...Array.from(
    { length: 30 },
    (_, i) => `        total_${i} = sum(item.amount for item in invoices if item.batch == ${i})`,
  ),
  '        return self.client.upload(self.folder, invoices)',
].join('\n');

let engine: Engine;
beforeAll(async () => {
  engine = await createEngine({ storage: 'memory', embedder: 'tfidf' });
  await engine.rememberMany([
    { id: 'chunk', text: CHUNK },
    { id: 'short', text: 'the invoice exporter uploads invoices to the client folder' },
  ]);
});
afterAll(() => engine.close());

describe('recall with compress: seed 002 compression in token-budget mode', () => {
  const full = countTokens(CHUNK);
  const budget = Math.floor(full * 0.75);

  it('leaves out a memory that does not fit the budget when compress is off', async () => {
    const rs = await engine.recall('invoice exporter upload', { tokenBudget: budget });
    expect(rs.map((r) => r.id)).not.toContain('chunk');
  });

  it('takes its compressed text when that fits, explains it and keeps the memory whole', async () => {
    const rs = await engine.recall('invoice exporter upload', {
      tokenBudget: budget,
      compress: true,
      explain: true,
    });
    const chunk = rs.find((r) => r.id === 'chunk')!;
    expect(chunk).toBeDefined();
    expect(chunk.text).toBe(CHUNK);
    const c = chunk.compressed!;
    expect(c.originalTokens).toBe(full);
    expect(c.tokens).toBe(countTokens(c.text));
    expect(c.tokens).toBeLessThan(full);
    expect(c.ratio).toBeCloseTo(c.tokens / full, 12);
    // structure stays, boilerplate collapses into summaries
    expect(c.text).toContain('class InvoiceExporter:');
    expect(c.text).toContain('return self.client.upload(self.folder, invoices)');
    expect(c.text).toMatch(/# \[5 imports: os, sys, json, time, logging\]/);
    expect(c.removedLines.boilerplate).toBeGreaterThan(0);
    expect(chunk.explain!.compression).toEqual({
      originalTokens: c.originalTokens,
      tokens: c.tokens,
      ratio: c.ratio,
      removedLines: c.removedLines,
    });
    const used = rs.reduce((s, r) => s + (r.compressed?.tokens ?? countTokens(r.text)), 0);
    expect(used).toBeLessThanOrEqual(budget);
    // what fitted whole is not compressed
    expect(rs.find((r) => r.id === 'short')?.compressed).toBeUndefined();
  });

  it('rejects compress without a token budget, and a compress that is not a boolean', async () => {
    await rejectsWith(engine.recall('invoice', { compress: true }), 'INVALID_INPUT');
    await rejectsWith(
      engine.recall('invoice', { tokenBudget: 50, compress: 'yes' as unknown as boolean }),
      'INVALID_INPUT',
    );
  });
});
