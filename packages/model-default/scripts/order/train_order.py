"""The word-order experiment of issue 67: a small transformer encoder on the default model's rows.

A pre-LN transformer (2 layers, 128 wide, 4 heads, feed-forward 256) whose token embeddings start
as the default model's int8 rows (`anamnesis/static-multi-64d`, dequantised, in the first 64 of
128 dimensions; the rest zero), with learned positions and every branch's output projection
starting at zero: at step 0 its mean-pooled output is the default model's vector (padded with
zeros), so training can only add what word order teaches. Trained with the static model's
objective (symmetric in-batch InfoNCE, one task per batch, τ 0.05) on the pairs that
`scripts/order-pairs.ts` writes (Debian descriptions and their translations, the evaluation's
packages excluded), then exported to ONNX as transformers.js loads a BERT-like feature-extraction
model: inputs `input_ids` and `attention_mask`, output `last_hidden_state`, int8 token rows
(Gather → Cast → Mul, as the static models) and float32 layers.

Runs on the CPU with Debian's python3-torch 1.13 and python3-onnx:

    /usr/bin/python3 scripts/order/train_order.py --steps 600 --out .cache/order-128

Writes `<out>/anamnesis/order-128/{config.json, tokenizer.json, tokenizer_config.json,
onnx/model_quantized.onnx}`, the default model beside it (`<out>/anamnesis/static-multi-64d/`, whose
word table its `config.json` borrows: `anamnesis.word_table`) and `<out>/manifest.json`
(`bench:quality --model-dir <out>` reads it).
"""
import argparse
import hashlib
import json
import math
import os
import random
import shutil
import time

import numpy as np
import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F
from onnx import numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.normpath(os.path.join(HERE, '..', '..'))
DEFAULT = os.path.join(PACKAGE, 'model', 'anamnesis', 'static-multi-64d')
MODEL_ID = 'anamnesis/order-128'


def default_rows():
    """The default model's rows, dequantised (float32, V × 64)."""
    m = onnx.load(os.path.join(DEFAULT, 'onnx', 'model_quantized.onnx'))
    t = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    return t['embeddings.int8'].astype(np.float32) * t['embeddings.scale']


class Block(nn.Module):
    def __init__(self, d, heads, ff):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.out = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.ff1 = nn.Linear(d, ff)
        self.ff2 = nn.Linear(ff, d)
        for lin in (self.out, self.ff2):
            nn.init.zeros_(lin.weight)
            nn.init.zeros_(lin.bias)

    def forward(self, x, bias):
        b, n, d = x.shape
        h = self.heads
        q, k, v = self.qkv(self.ln1(x)).reshape(b, n, 3, h, d // h).permute(2, 0, 3, 1, 4)
        att = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(d // h) + bias, dim=-1)
        x = x + self.out((att @ v).transpose(1, 2).reshape(b, n, d))
        return x + self.ff2(F.gelu(self.ff1(self.ln2(x))))


class Encoder(nn.Module):
    def __init__(self, rows, d=128, layers=2, heads=4, ff=256, positions=512):
        super().__init__()
        v, d0 = rows.shape
        self.tokens = nn.Embedding(v, d)
        with torch.no_grad():
            self.tokens.weight.zero_()
            self.tokens.weight[:, :d0] = torch.from_numpy(rows)
        self.positions = nn.Embedding(positions, d)
        nn.init.zeros_(self.positions.weight)
        self.blocks = nn.ModuleList([Block(d, heads, ff) for _ in range(layers)])

    def hidden(self, x, mask):
        n = x.shape[1]
        x = x + self.positions.weight[:n].unsqueeze(0)
        bias = ((1.0 - mask.to(x.dtype)) * -1e4)[:, None, None, :]
        for block in self.blocks:
            x = block(x, bias)
        return x

    def forward(self, ids, mask):
        return self.hidden(self.tokens(ids), mask)


class Exported(nn.Module):
    """The trained encoder with int8 token rows (per row, scale = max|row| / 127), as exported."""

    def __init__(self, enc):
        super().__init__()
        w = enc.tokens.weight.detach()
        scale = w.abs().max(dim=1, keepdim=True).values / 127.0
        scale[scale == 0] = 1.0
        self.register_buffer('q', torch.round(w / scale).clamp(-127, 127).to(torch.int8))
        self.register_buffer('scale', scale)
        self.enc = enc

    def forward(self, input_ids, attention_mask):
        x = self.q[input_ids].to(torch.float32) * self.scale[input_ids]
        return self.enc.hidden(x, attention_mask)


def pool(hidden, mask):
    """Mean over the attended tokens, unit length: what transformers.js's pipeline does."""
    m = mask.unsqueeze(-1).to(hidden.dtype)
    return F.normalize((hidden * m).sum(1) / m.sum(1).clamp(min=1), dim=-1)


class Texts:
    def __init__(self, folder, max_tokens):
        self.ids = np.fromfile(os.path.join(folder, 'texts.i32'), dtype='<i4')
        self.off = np.fromfile(os.path.join(folder, 'offsets.i32'), dtype='<i4')
        self.max = max_tokens

    def batch(self, idx):
        seqs = []
        for i in idx:
            s = self.ids[self.off[i]:self.off[i + 1]]
            if len(s) > self.max:  # keep [CLS] … [SEP]
                s = np.concatenate([s[: self.max - 1], s[-1:]])
            seqs.append(s)
        n = max(len(s) for s in seqs)
        ids = np.zeros((len(seqs), n), dtype=np.int64)
        mask = np.zeros((len(seqs), n), dtype=np.int64)
        for j, s in enumerate(seqs):
            ids[j, : len(s)] = s
            mask[j, : len(s)] = 1
        return torch.from_numpy(ids), torch.from_numpy(mask)


def embed(model, texts, idx, size=256):
    out = []
    with torch.no_grad():
        for s in range(0, len(idx), size):
            ids, mask = texts.batch(idx[s : s + size])
            out.append(pool(model(ids, mask), mask))
    return torch.cat(out)


def cross_language(model, texts, held, limit):
    """Recall@10 and MRR, English long ↔ translation long, both directions, mean over languages."""
    r10, mrr = [], []
    for lang, pair in sorted(held.items()):
        en, other = pair['en'][:limit], pair['other'][:limit]
        if len(en) < 20:
            continue
        a, b = embed(model, texts, en), embed(model, texts, other)
        for s in (a @ b.T, b @ a.T):
            rank = (s > s.diag().unsqueeze(1)).sum(1)
            r10.append((rank < 10).float().mean().item())
            mrr.append((1.0 / (rank + 1).float()).mean().item())
    return float(np.mean(r10)), float(np.mean(mrr))


def schedule(tasks, batch, rng):
    batches = []
    for t in tasks:
        order = list(range(len(t['a'])))
        for _ in range(t['repeat']):
            rng.shuffle(order)
            for s in range(0, len(order) - batch // 4 + 1, batch):
                chunk = order[s : s + batch]
                batches.append(([t['a'][i] for i in chunk], [t['b'][i] for i in chunk]))
    rng.shuffle(batches)
    return batches


def sha256(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--pairs', default=os.path.join(PACKAGE, '.cache', 'order'))
    p.add_argument('--out', default=os.path.join(PACKAGE, '.cache', 'order-128'))
    p.add_argument('--steps', type=int, default=600)
    p.add_argument('--batch', type=int, default=256)
    p.add_argument('--max-tokens', type=int, default=64)
    p.add_argument('--lr', type=float, default=1e-3)
    p.add_argument('--token-lr', type=float, default=1e-4)
    p.add_argument('--temperature', type=float, default=0.05)
    p.add_argument('--layers', type=int, default=2)
    p.add_argument('--width', type=int, default=128)
    p.add_argument('--check-every', type=int, default=100)
    p.add_argument('--seed', type=int, default=67)
    p.add_argument('--threads', type=int, default=2)
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    rng = random.Random(a.seed)
    started = time.time()
    log = lambda m: print(f'[train_order {time.time() - started:.0f} s] {m}', flush=True)

    meta = json.load(open(os.path.join(a.pairs, 'tasks.json')))
    texts = Texts(a.pairs, a.max_tokens)
    model = Encoder(default_rows(), d=a.width, layers=a.layers)
    params = [q for n, q in model.named_parameters() if not n.startswith('tokens.')]
    opt = torch.optim.AdamW(
        [{'params': params, 'lr': a.lr, 'weight_decay': 0.01},
         {'params': model.tokens.parameters(), 'lr': a.token_lr, 'weight_decay': 0.0}])
    batches = schedule(meta['tasks'], a.batch, rng)
    steps = min(a.steps, len(batches))
    warmup = max(1, steps // 20)
    lr_at = lambda s: min(1.0, (s + 1) / warmup) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * s / steps)))
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_at)
    log(f'{len(batches)} batches an epoch, training {steps}; '
        f'{sum(q.numel() for q in model.parameters())} parameters')
    model.eval()
    x0 = cross_language(model, texts, meta['validation'], 500)
    log(f'step 0 (the default model): cross-language validation R@10 {x0[0]:.3f}, MRR {x0[1]:.3f}')
    checks = [{'step': 0, 'recall10': x0[0], 'mrr': x0[1]}]
    losses = []
    for step in range(steps):
        model.train()
        ia, ib = batches[step]
        (xa, ma), (xb, mb) = texts.batch(ia), texts.batch(ib)
        s = pool(model(xa, ma), ma) @ pool(model(xb, mb), mb).T / a.temperature
        target = torch.arange(s.shape[0])
        loss = (F.cross_entropy(s, target) + F.cross_entropy(s.T, target)) / 2
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        losses.append(loss.item())
        if (step + 1) % 20 == 0:
            log(f'step {step + 1}: loss {np.mean(losses[-20:]):.3f}')
        if (step + 1) % a.check_every == 0 or step + 1 == steps:
            model.eval()
            x = cross_language(model, texts, meta['validation'], 500)
            checks.append({'step': step + 1, 'recall10': x[0], 'mrr': x[1]})
            log(f'step {step + 1}: cross-language validation R@10 {x[0]:.3f}, MRR {x[1]:.3f}')

    model.eval()
    root = os.path.join(a.out, *MODEL_ID.split('/'))
    os.makedirs(os.path.join(root, 'onnx'), exist_ok=True)
    exported = Exported(model).eval()
    ids, mask = texts.batch(meta['validation']['de']['en'][:2])
    onnx_path = os.path.join(root, 'onnx', 'model_quantized.onnx')
    torch.onnx.export(
        exported, (ids, mask), onnx_path, opset_version=14,
        input_names=['input_ids', 'attention_mask'], output_names=['last_hidden_state'],
        dynamic_axes={'input_ids': {0: 'batch', 1: 'sequence'},
                      'attention_mask': {0: 'batch', 1: 'sequence'},
                      'last_hidden_state': {0: 'batch', 1: 'sequence'}})
    for name in ('tokenizer.json', 'tokenizer_config.json'):
        shutil.copyfile(os.path.join(DEFAULT, name), os.path.join(root, name))
    languages = json.load(open(os.path.join(DEFAULT, 'config.json')))['anamnesis']['languages']
    settings = {k: getattr(a, k) for k in ('steps', 'batch', 'max_tokens', 'lr', 'token_lr',
                                           'temperature', 'layers', 'width', 'seed')}
    config = {
        'architectures': ['BertModel'], 'model_type': 'bert', 'hidden_size': a.width,
        'num_hidden_layers': a.layers, 'num_attention_heads': 4, 'intermediate_size': 256,
        'vocab_size': int(meta['vocab_size']), 'max_position_embeddings': 512, 'pad_token_id': 0,
        'transformers.js_config': {'dtype': 'q8'},
        'anamnesis': {
            'kind': 'order-encoder', 'pooling': 'mean', 'normalize': True, 'languages': languages,
            # the default model's words and their neighbours (the same tokenizer): the engine's
            # typo reading and `expansion` leg, as with the default model
            'word_table': 'anamnesis/static-multi-64d',
            'source': 'the rows of anamnesis/static-multi-64d; Debian bookworm package descriptions (DDTP)',
            'quantization': 'token rows int8 per row, scale = max|row| / 127; layers float32',
            'training': settings,
        },
    }
    with open(os.path.join(root, 'config.json'), 'w') as f:
        json.dump(config, f, indent=2)
    # the word table's model beside it, under its own id
    table = os.path.join(a.out, 'anamnesis', 'static-multi-64d')
    shutil.rmtree(table, ignore_errors=True)
    shutil.copytree(DEFAULT, table)
    files = {}
    for dirpath, _, names in os.walk(root):
        for name in names:
            path = os.path.join(dirpath, name)
            files[os.path.relpath(path, a.out)] = {'bytes': os.path.getsize(path), 'sha256': sha256(path)}
    with open(os.path.join(a.out, 'manifest.json'), 'w') as f:
        json.dump({'model_id': MODEL_ID, 'files': files, 'settings': settings,
                   'pairs': os.path.relpath(a.pairs, PACKAGE), 'checks': checks,
                   'seconds': round(time.time() - started)}, f, indent=2)
    log(f'wrote {a.out} ({sum(v["bytes"] for v in files.values())} bytes)')


if __name__ == '__main__':
    main()
